

def test_data_version_moves_only_for_other_connections(tmp_path):
    from mteval_gui.app.workspace import Workspace, data_version

    ws = Workspace(tmp_path / "w.sqlite")
    other = Workspace(tmp_path / "w.sqlite")
    try:
        seen = data_version(ws)
        ws.conn.execute("CREATE TABLE mine (x)")  # this connection's own change
        assert data_version(ws) == seen
        other.conn.execute("CREATE TABLE theirs (x)")  # another connection (another process) commits
        changed = data_version(ws)
        assert changed != seen
        assert data_version(ws) == changed  # until the next change elsewhere
        other.conn.execute("SELECT * FROM theirs").fetchall()  # reading elsewhere changes nothing
        assert data_version(ws) == changed
    finally:
        other.close()
        ws.close()
