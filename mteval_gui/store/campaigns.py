"""Review campaigns stored in the workspace (one row each, the definition as JSON)."""

from __future__ import annotations

import json

from mteval_gui.domain.campaign import Campaign
from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace


def add_campaign(ws: Workspace, campaign: Campaign) -> None:
    with ws.transaction() as c:
        if c.execute("SELECT 1 FROM campaigns WHERE campaign_id = ?", (campaign.campaign_id,)).fetchone():
            raise StoreError(f"a campaign {campaign.campaign_id!r} exists already")
        c.execute("INSERT INTO campaigns (campaign_id, definition, created_at) VALUES (?,?,?)",
                  (campaign.campaign_id, campaign.model_dump_json(), campaign.created_at))


def get_campaign(ws: Workspace, campaign_id: str) -> Campaign:
    row = ws.conn.execute("SELECT definition FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()
    if row is None:
        raise StoreError(f"no campaign {campaign_id!r} (`mteval campaign list` lists them)")
    return Campaign.model_validate(json.loads(row[0]))


def list_campaigns(ws: Workspace) -> list[Campaign]:
    rows = ws.conn.execute("SELECT definition FROM campaigns ORDER BY created_at, campaign_id").fetchall()
    return [Campaign.model_validate(json.loads(r[0])) for r in rows]


def delete_campaign(ws: Workspace, campaign_id: str) -> None:
    """Forget a campaign (the judgments made in it stay: they belong to their reviewers)."""
    with ws.transaction() as c:
        if c.execute("DELETE FROM campaigns WHERE campaign_id = ?", (campaign_id,)).rowcount == 0:
            raise StoreError(f"no campaign {campaign_id!r}")
