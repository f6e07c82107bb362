/* mteval review pack: one entry at a time, every answer kept in this browser's storage.
 *
 * The pack's data is the JSON block #pack-data. Answers form a log like the workspace's
 * judgment log: a changed answer adds a version and points the previous one at it
 * (superseded_by); undo marks the newest version undone and makes the one it replaced
 * current again; redo reverses the last undo while nothing new was recorded. The log is
 * written to localStorage after every change (texts being typed are kept as drafts at every
 * keystroke and become a version when the field is left), so closing the tab loses nothing.
 * "Export answers" writes a JSON file with the pack id, the pack's content hash and a hash
 * of the answers, for `mteval judgments import`.
 *
 * The rating keys are not defined here: the block #review-keys holds the key map the desktop
 * ratings panel uses too (mteval_gui/domain/review_keys.py), so the same keys record the same
 * values in both.
 *
 * Where an item belongs to a document (item.doc indexes PACK.documents), the page also offers
 * "Rate the document": one adequacy and fluency rating (and a note) per document, the same on
 * every item of it. Its log rows carry "doc" (the document's index) and the document's first
 * item; the workspace records them as document ratings (task D). D switches the rating keys
 * between the segment and the document; D or Esc goes back.
 *
 * No network access of any kind: no external URL, no fetch, no worker; the page's
 * Content-Security-Policy forbids them anyway.
 */
(function () {
  "use strict";

  var PACK = JSON.parse(document.getElementById("pack-data").textContent);
  // {scales, wrap, keys: [{key, action, value, shift, ctrl}], field_keys: [...]}
  var KEYMAP = JSON.parse(document.getElementById("review-keys").textContent);
  var STORE_KEY = "mteval-review-pack:" + PACK.pack_id;
  var ANSWERS_FORMAT = "mteval-review-answers/1";
  var TASK = PACK.task;
  var OUTPUT_TASK = TASK === "A" || TASK === "B";

  // ------------------------------------------------------------------ texts (English, French)
  var TEXT = {
    en: {
      title: "Review", of: "of", answered: "answered", source: "Source", reference: "Reference",
      output: "Output", context: "Same document", error: "System error", noOutput: "(no output)",
      adequacy: "Adequacy", fluency: "Fluency", flag: "Flag (F)", note: "Note", correction: "Corrected translation",
      correctionHint: "Type a better translation if you have one", spans: "Error spans",
      spansHint: "Select words of the output, then mark them minor, major or critical; \"Missing content\" (O) " +
                 "marks something of the source the output leaves out. Then give your ESA score (E).",
      minor: "Minor", major: "Major", critical: "Critical", missing: "Missing content (O)",
      missingSpan: "[missing content]", severity: "Severity", esaScore: "ESA score (0-100)",
      esaHint: "Your own rating of the output, from 0 (nothing right) to 100 (perfect), after marking the errors",
      esaRange: "The ESA score is a whole number from 0 to 100.",
      category: "Category", noCategory: "(no category)", remove: "Remove", noSpans: "No error marked.",
      prev: "Previous", next: "Next", nextOpen: "Next unanswered (Enter)", exportBtn: "Export answers",
      undo: "Undo (Ctrl+Z)", redo: "Redo", saved: "Saved", undone: "Undone", redone: "Redone",
      nothingUndo: "Nothing to undo", nothingRedo: "Nothing to redo", exported: "Answers written to",
      allDone: "Every item is answered. Export your answers when you are ready.",
      sameMeaning: "Same meaning?", natural: "Both natural?", valid: "Valid word?", kind: "Kind",
      pairA: "A (reference)", pairB: "B (output)", classes: "Variant classes", word: "Word",
      keysA: "Keys: 1-5 rate (then go on to fluency), Tab / Shift+Tab move between adequacy and fluency, F flags, " +
             "Enter goes to the next unanswered item; Enter or Esc in the note leaves it.",
      keysB: "Keys: Y/N/D same meaning, 1-4 natural, Enter goes to the next unanswered pair.",
      keysC: "Keys: Y/N/U valid word, 1-6 kind, Enter goes to the next unanswered word.",
      reviewer: "Reviewer", language: "Français", selectFirst: "Select part of the output first.",
      version: "version", blind: "Blind review: the reference and the systems are hidden.",
      script: "Script", forms: "Forms the language's generator offers for {word} (click one to use it as the correction)",
      gold: "expected inflection", useForm: "Use",
      rateDocument: "Rate the document", rateDocumentBtn: "Rate the document (D)",
      backToSegment: "Back to the segment (D)", docNote: "Note on the whole document",
      documentHint: "One rating for the whole translation of document {doc} ({n} segments): the same on each " +
                    "of its segments.",
      keysDoc: "Keys: 1-5 rate the document (then go on to fluency), Tab / Shift+Tab move between adequacy and " +
               "fluency, D or Esc goes back to the segment.",
      adequacyLabels: ["None", "Little", "Much", "Most", "All"],
      fluencyLabels: ["Incomprehensible", "Disfluent", "Non-native", "Good", "Flawless"],
      yes: "Yes", no: "No", depends: "Depends", aBetter: "A better", bBetter: "B better", neither: "Neither",
      unsure: "Unsure", established: "Established", loanword: "Loanword", name: "Name", dialectal: "Dialectal",
      neologism: "Neologism", other: "Other",
      cat: {mistranslation: "Mistranslation", omission: "Omission", addition: "Addition", untranslated: "Untranslated",
            grammar: "Grammar", spelling: "Spelling", punctuation: "Punctuation", terminology: "Terminology",
            style: "Style", other: "Other"}
    },
    fr: {
      title: "Évaluation", of: "sur", answered: "répondus", source: "Source", reference: "Référence",
      output: "Sortie", context: "Même document", error: "Erreur du système", noOutput: "(pas de sortie)",
      adequacy: "Adéquation", fluency: "Fluidité", flag: "Signaler (F)", note: "Note",
      correction: "Traduction corrigée", correctionHint: "Tapez une meilleure traduction si vous en avez une",
      spans: "Segments erronés",
      spansHint: "Sélectionnez des mots de la sortie, puis marquez-les mineurs, majeurs ou critiques ; « Contenu " +
                 "manquant » (O) marque une partie de la source absente de la sortie. Donnez ensuite votre score ESA (E).",
      minor: "Mineure", major: "Majeure", critical: "Critique", missing: "Contenu manquant (O)",
      missingSpan: "[contenu manquant]", severity: "Gravité", esaScore: "Score ESA (0-100)",
      esaHint: "Votre propre note de la sortie, de 0 (rien de juste) à 100 (parfaite), après avoir marqué les erreurs",
      esaRange: "Le score ESA est un nombre entier de 0 à 100.", category: "Catégorie", noCategory: "(sans catégorie)", remove: "Retirer",
      noSpans: "Aucune erreur marquée.", prev: "Précédent", next: "Suivant", nextOpen: "Suivant sans réponse (Entrée)",
      exportBtn: "Exporter les réponses", undo: "Annuler (Ctrl+Z)", redo: "Rétablir", saved: "Enregistré",
      undone: "Annulé", redone: "Rétabli", nothingUndo: "Rien à annuler", nothingRedo: "Rien à rétablir",
      exported: "Réponses écrites dans",
      allDone: "Tous les éléments ont une réponse. Exportez vos réponses quand vous êtes prêt·e.",
      sameMeaning: "Même sens ?", natural: "Les deux naturels ?", valid: "Mot valide ?", kind: "Type",
      pairA: "A (référence)", pairB: "B (sortie)", classes: "Classes de variantes", word: "Mot",
      keysA: "Touches : 1-5 notent (puis passent à la fluidité), Tab / Maj+Tab passent de l'adéquation à la " +
             "fluidité et retour, F signale, Entrée va au suivant sans réponse ; Entrée ou Échap quitte la note.",
      keysB: "Touches : O/N/D même sens, 1-4 naturel, Entrée va à la paire suivante sans réponse.",
      keysC: "Touches : O/N/I mot valide, 1-6 type, Entrée va au mot suivant sans réponse.",
      reviewer: "Évaluateur·rice", language: "English", selectFirst: "Sélectionnez d'abord une partie de la sortie.",
      version: "version", blind: "Évaluation à l'aveugle : la référence et les systèmes sont masqués.",
      script: "Écriture", forms: "Formes que propose le générateur de la langue pour {word} (cliquez sur l'une " +
        "d'elles pour en faire la correction)",
      gold: "flexion attendue", useForm: "Utiliser",
      rateDocument: "Noter le document", rateDocumentBtn: "Noter le document (D)",
      backToSegment: "Retour au segment (D)", docNote: "Note sur tout le document",
      documentHint: "Une seule note pour toute la traduction du document {doc} ({n} segments) : la même sur " +
                    "chacun de ses segments.",
      keysDoc: "Touches : 1-5 notent le document (puis passent à la fluidité), Tab / Maj+Tab passent de " +
               "l'adéquation à la fluidité et retour, D ou Échap revient au segment.",
      adequacyLabels: ["Rien", "Peu", "Beaucoup", "La plupart", "Tout"],
      fluencyLabels: ["Incompréhensible", "Peu fluide", "Non natif", "Bon", "Impeccable"],
      yes: "Oui", no: "Non", depends: "Ça dépend", aBetter: "A meilleur", bBetter: "B meilleur",
      neither: "Aucun des deux", unsure: "Incertain", established: "Établi", loanword: "Emprunt", name: "Nom propre",
      dialectal: "Dialectal", neologism: "Néologisme", other: "Autre",
      cat: {mistranslation: "Contresens", omission: "Omission", addition: "Ajout", untranslated: "Non traduit",
            grammar: "Grammaire", spelling: "Orthographe", punctuation: "Ponctuation", terminology: "Terminologie",
            style: "Style", other: "Autre"}
    }
  };

  // questions per task: [payload key, [[stored value, text key, keys...], ...]]
  var QUESTIONS = {
    B: [["same_meaning", "sameMeaning", [["Yes", "yes", "y", "o"], ["No", "no", "n"], ["Depends", "depends", "d"]]],
        ["natural", "natural", [["Yes", "yes", "1"], ["A better", "aBetter", "2"], ["B better", "bBetter", "3"],
                                ["Neither", "neither", "4"]]]],
    C: [["valid", "valid", [["Yes", "yes", "y", "o"], ["No", "no", "n"], ["Unsure", "unsure", "u", "i"]]],
        ["kind", "kind", [["Established", "established", "1"], ["Loanword", "loanword", "2"], ["Name", "name", "3"],
                          ["Dialectal", "dialectal", "4"], ["Neologism", "neologism", "5"], ["Other", "other", "6"]]]]
  };

  // ------------------------------------------------------------------ state and storage
  var state = load();
  var lastSelection = null; // {start, end} in code points of the current output
  var message = "";

  function fresh() {
    return {log: (PACK.log || []).map(function (r) { return copy(r); }), drafts: {}, pos: 0, redo: [],
            lang: null, active: "adequacy", docMode: false, docActive: "adequacy"};
  }

  function load() {
    var raw = null;
    try { raw = window.localStorage.getItem(STORE_KEY); } catch (e) { raw = null; }
    if (!raw) { return fresh(); }
    try {
      var s = JSON.parse(raw);
      if (!s || !Array.isArray(s.log)) { return fresh(); }
      s.drafts = s.drafts || {}; s.redo = s.redo || []; s.active = s.active || "adequacy";
      s.docMode = !!s.docMode; s.docActive = s.docActive || "adequacy";
      return s;
    } catch (e) { return fresh(); }
  }

  function save() {
    try {
      window.localStorage.setItem(STORE_KEY, JSON.stringify(state));
    } catch (e) {
      message = "localStorage: " + e;
    }
  }

  function copy(v) { return JSON.parse(JSON.stringify(v)); }

  function lang() {
    if (state.lang) { return state.lang; }
    if (PACK.ui_lang) { return PACK.ui_lang; }
    var nav = (navigator.language || "en").toLowerCase();
    return nav.indexOf("fr") === 0 ? "fr" : "en";
  }

  function t(key) { return TEXT[lang()][key]; }

  function nowIso() { return new Date().toISOString().replace("Z", "+00:00"); }

  // ------------------------------------------------------------------ the answer log
  function current(item) {
    for (var i = state.log.length - 1; i >= 0; i--) {
      var r = state.log[i];
      if (r.item === item && r.doc == null && !r.undone && r.superseded_by === null) { return r; }
    }
    return null;
  }

  // a document's rating: rows with "doc" (the document's index in PACK.documents)
  function docCurrent(k) {
    for (var i = state.log.length - 1; i >= 0; i--) {
      var r = state.log[i];
      if (r.doc === k && !r.undone && r.superseded_by === null) { return r; }
    }
    return null;
  }

  function docAnswerOf(k) {
    var c = docCurrent(k);
    if (!c) { return {adequacy: null, fluency: null, note: null}; }
    return {adequacy: c.adequacy, fluency: c.fluency, note: c.note};
  }

  function recordDoc(k, change) {
    var before = docAnswerOf(k), after = copy(before);
    change(after);
    if (canon(before) === canon(after)) { return; }
    var maxId = 0, maxVersion = 0;
    state.log.forEach(function (r) {
      if (r.id > maxId) { maxId = r.id; }
      if (r.doc === k && r.version > maxVersion) { maxVersion = r.version; }
    });
    var row = {id: maxId + 1, item: PACK.documents[k].item, doc: k, version: maxVersion + 1, created_at: nowIso(),
               adequacy: after.adequacy, fluency: after.fluency, note: after.note, flagged: false,
               payload: {document: PACK.documents[k].document}, superseded_by: null, undone: false};
    var prev = docCurrent(k);
    if (prev) { prev.superseded_by = row.id; }
    state.log.push(row);
    state.redo = [];
    message = t("saved") + " (" + t("version") + " " + row.version + ")";
    save();
  }

  function docOf(pos) {
    var item = PACK.items[pos];
    return item && item.doc != null && PACK.documents && PACK.documents[item.doc] ? item.doc : null;
  }

  function blankAnswer() {
    return {adequacy: null, fluency: null, note: null, flagged: false, payload: {}};
  }

  function answerOf(item) {
    var c = current(item);
    if (!c) { return blankAnswer(); }
    return {adequacy: c.adequacy, fluency: c.fluency, note: c.note, flagged: c.flagged, payload: copy(c.payload)};
  }

  function sameAnswer(a, b) {
    return canon([a.adequacy, a.fluency, a.note, a.flagged, a.payload]) ===
           canon([b.adequacy, b.fluency, b.note, b.flagged, b.payload]);
  }

  function record(item, change) {
    var before = answerOf(item);
    if (TASK === "C") { before.payload.word = PACK.items[item].word; }
    if (TASK === "B" && PACK.items[item].classes) { before.payload.classes = PACK.items[item].classes; }
    var after = copy(before);
    change(after);
    if (sameAnswer(before, after)) { return; }
    var maxId = 0, maxVersion = 0;
    state.log.forEach(function (r) {
      if (r.id > maxId) { maxId = r.id; }
      if (r.item === item && r.doc == null && r.version > maxVersion) { maxVersion = r.version; }
    });
    var row = {id: maxId + 1, item: item, version: maxVersion + 1, created_at: nowIso(),
               adequacy: after.adequacy, fluency: after.fluency, note: after.note, flagged: after.flagged,
               payload: after.payload, superseded_by: null, undone: false};
    var prev = current(item);
    if (prev) { prev.superseded_by = row.id; }
    state.log.push(row);
    state.redo = [];
    message = t("saved") + " (" + t("version") + " " + row.version + ")";
    save();
  }

  function undo() {
    commitDrafts();
    var newest = null;
    state.log.forEach(function (r) {
      if (!r.undone && r.superseded_by === null && (!newest || r.id > newest.id)) { newest = r; }
    });
    if (!newest) { message = t("nothingUndo"); render(); return; }
    newest.undone = true;
    state.log.forEach(function (r) { if (r.superseded_by === newest.id) { r.superseded_by = null; } });
    state.redo.push(newest.id);
    state.pos = newest.item;
    state.docMode = newest.doc != null;
    message = t("undone");
    save(); render();
  }

  function redo() {
    var id = state.redo.pop();
    var row = state.log.filter(function (r) { return r.id === id; })[0];
    if (!row) { message = t("nothingRedo"); render(); return; }
    var prev = row.doc != null ? docCurrent(row.doc) : current(row.item);
    if (prev) { prev.superseded_by = row.id; }
    row.undone = false;
    state.pos = row.item;
    state.docMode = row.doc != null;
    message = t("redone");
    save(); render();
  }

  function complete(item) {
    var a = current(item);
    if (!a) { return false; }
    var p = a.payload || {};
    if (TASK === "A") { return a.adequacy !== null && a.fluency !== null; }
    if (TASK === "B") { return p.same_meaning != null && p.natural != null; }
    return p.valid === "No" || p.valid === "Unsure" || (p.valid === "Yes" && p.kind != null);
  }

  // texts typed into the note and correction fields: drafts at each keystroke, a version on leaving
  function cleanText(s) {
    if (s === null || s === undefined) { return null; }
    s = String(s).normalize("NFC").replace(/\r\n?/g, "\n").trim();
    return s ? s : null;
  }

  // a correction as the workspace accepts it (domain/judgments.py correction_problems): control
  // characters other than tab and newline dropped, at most MAX_CORRECTION characters, and none at
  // all when nothing visible is left (only spaces, zero-width or format characters)
  var MAX_CORRECTION = 10000;
  function cleanCorrection(s) {
    s = cleanText(s === null || s === undefined ? s : String(s).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ""));
    if (s === null || !/[^\p{C}\p{Z}]/u.test(s)) { return null; }
    var chars = Array.from(s);
    return chars.length > MAX_CORRECTION ? chars.slice(0, MAX_CORRECTION).join("").trim() : s;
  }

  function commitDrafts() {
    Object.keys(state.drafts).forEach(function (key) {
      var d = state.drafts[key], item = Number(key);
      delete state.drafts[key];
      if (key.indexOf("doc:") === 0) {
        recordDoc(Number(key.slice(4)), function (a) { a.note = cleanText(d.note); });
        return;
      }
      record(item, function (a) {
        if ("note" in d) { a.note = cleanText(d.note); }
        if ("correction" in d) {
          var c = cleanCorrection(d.correction);
          if (c === null) { delete a.payload.correction; } else { a.payload.correction = c; }
        }
      });
    });
    save();
  }

  function draft(field, value) {
    var key = String(state.pos);
    state.drafts[key] = state.drafts[key] || {};
    state.drafts[key][field] = value;
    save();
  }

  // ------------------------------------------------------------------ code points vs UTF-16
  function cpLength(s) { return Array.from(s).length; }

  function cpToUnit(s, cp) {
    var chars = Array.from(s);
    return chars.slice(0, cp).join("").length;
  }

  // ------------------------------------------------------------------ canonical JSON and SHA-256
  function canon(v) {
    if (Array.isArray(v)) { return "[" + v.map(canon).join(",") + "]"; }
    if (v !== null && typeof v === "object") {
      return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(v[k]); }).join(",") + "}";
    }
    return JSON.stringify(v);
  }

  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];

  function sha256Bytes(bytes) {
    var n = bytes.length, total = ((n + 9 + 63) >> 6) << 6;
    var m = new Uint8Array(total);
    m.set(bytes); m[n] = 0x80;
    var bits = n * 8;
    for (var b = 0; b < 8; b++) { m[total - 1 - b] = Math.floor(bits / Math.pow(2, 8 * b)) & 0xff; }
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    for (var off = 0; off < total; off += 64) {
      for (var i = 0; i < 16; i++) {
        w[i] = (m[off + 4 * i] << 24) | (m[off + 4 * i + 1] << 16) | (m[off + 4 * i + 2] << 8) | m[off + 4 * i + 3];
      }
      for (i = 16; i < 64; i++) {
        var x = w[i - 15], y = w[i - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      var a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (i = 0; i < 64; i++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (hh + S1 + ch + K[i] + w[i]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & bb) ^ (a & c) ^ (bb & c);
        var t2 = (S0 + maj) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + bb) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + hh) | 0;
    }
    var out = new Uint8Array(32);
    for (var k = 0; k < 8; k++) {
      out[4 * k] = (h[k] >>> 24) & 0xff; out[4 * k + 1] = (h[k] >>> 16) & 0xff;
      out[4 * k + 2] = (h[k] >>> 8) & 0xff; out[4 * k + 3] = h[k] & 0xff;
    }
    return out;
  }

  function hex(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) { s += ("0" + bytes[i].toString(16)).slice(-2); }
    return s;
  }

  function sha256Hex(text) { return hex(sha256Bytes(new TextEncoder().encode(text))); }

  // HMAC-SHA256 (RFC 2104) over the SHA-256 above: the pack signs its answers with its own key,
  // which the workspace keeps, so an edited answers file cannot simply be re-hashed
  function hmacSha256Hex(keyHex, text) {
    var key = new Uint8Array(keyHex.length / 2);
    for (var i = 0; i < key.length; i++) { key[i] = parseInt(keyHex.substr(2 * i, 2), 16); }
    if (key.length > 64) { key = sha256Bytes(key); }
    var msg = new TextEncoder().encode(text);
    var inner = new Uint8Array(64 + msg.length), outer = new Uint8Array(64 + 32);
    for (i = 0; i < 64; i++) {
      var b = i < key.length ? key[i] : 0;
      inner[i] = b ^ 0x36; outer[i] = b ^ 0x5c;
    }
    inner.set(msg, 64);
    outer.set(sha256Bytes(inner), 64);
    return hex(sha256Bytes(outer));
  }

  // ------------------------------------------------------------------ export
  function answersDocument() {
    commitDrafts();
    var answers = state.log.slice().sort(function (a, b) { return a.id - b.id; });
    return {format: ANSWERS_FORMAT, pack_id: PACK.pack_id, pack_sha256: PACK.content_sha256,
            reviewer_id: PACK.reviewer.reviewer_id, task: TASK, exported_at: nowIso(),
            answers: answers, answers_hmac: hmacSha256Hex(PACK.answers_key, canon(answers))};
  }

  function exportAnswers() {
    var doc = answersDocument();
    var text = JSON.stringify(doc, null, 1) + "\n";
    var name = "answers-" + PACK.pack_id + ".json";
    var blob = new Blob([text], {type: "application/json"});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    message = t("exported") + " " + name;
    render();
  }

  // the script the reference is shown in: the reviewer's choice, else the pack's default, else as written
  function refScript() {
    return state.refScript || PACK.reference_script || null;
  }

  // ------------------------------------------------------------------ DOM helpers
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }

  function button(label, cls, onClick, id) {
    var b = el("button", cls, label);
    b.type = "button";
    if (id) { b.id = id; }
    b.addEventListener("click", function (ev) { ev.preventDefault(); onClick(); });
    return b;
  }

  function section(title) {
    var s = el("section", "block");
    if (title) { s.appendChild(el("h2", null, title)); }
    return s;
  }

  // ------------------------------------------------------------------ rendering
  function go(pos) {
    commitDrafts();
    var n = PACK.items.length;
    state.pos = Math.max(0, Math.min(n - 1, pos));
    state.active = "adequacy";
    state.docMode = false; state.docActive = "adequacy";
    lastSelection = null;
    message = "";
    save(); render();
    window.scrollTo(0, 0);
  }

  function nextOpen() {
    commitDrafts();
    var n = PACK.items.length;
    for (var k = 1; k <= n; k++) {
      var i = (state.pos + k) % n;
      if (!complete(i)) { go(i); return; }
    }
    message = t("allDone");
    render();
  }

  function outputText(item) { return item.output || ""; }

  function renderOutput(item, spans) {
    var text = outputText(item);
    var box = el("div", "text output");
    box.id = "output";
    box.setAttribute("lang", PACK.language.target_tag || PACK.language.target);
    if (item.error) { box.appendChild(el("span", "error", t("error") + ": " + item.error)); return box; }
    if (!text.trim()) { box.appendChild(el("span", "error", t("noOutput"))); return box; }
    var marks = new Array(cpLength(text)).fill(0);
    var level = {minor: 1, major: 2, critical: 3};
    spans.forEach(function (sp) {
      if (sp.missing) { return; }  // missing content has no place in the output
      for (var i = sp.start; i < sp.end && i < marks.length; i++) {
        marks[i] = Math.max(marks[i], level[sp.severity] || 2);
      }
    });
    var chars = Array.from(text), i = 0;
    while (i < chars.length) {
      var j = i;
      while (j < chars.length && marks[j] === marks[i]) { j++; }
      var chunk = chars.slice(i, j).join("");
      if (marks[i]) { box.appendChild(el("mark", ["", "minor", "major", "critical"][marks[i]], chunk)); }
      else { box.appendChild(document.createTextNode(chunk)); }
      i = j;
    }
    return box;
  }

  function selectionIn(box) {
    var sel = window.getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) { return null; }
    var range = sel.getRangeAt(0);
    if (!box.contains(range.startContainer) || !box.contains(range.endContainer)) { return null; }
    var pre = document.createRange();
    pre.selectNodeContents(box);
    pre.setEnd(range.startContainer, range.startOffset);
    var startUnits = pre.toString().length;
    var endUnits = startUnits + range.toString().length;
    var text = box.textContent;
    var start = cpLength(text.slice(0, startUnits)), end = cpLength(text.slice(0, endUnits));
    // trim white space at the edges of the selection
    var chars = Array.from(text);
    while (start < end && /\s/.test(chars[start])) { start++; }
    while (end > start && /\s/.test(chars[end - 1])) { end--; }
    return start < end ? {start: start, end: end} : null;
  }

  function categoryLabel(c) {
    var builtin = TEXT[lang()].cat[c.id];
    return c.label || builtin || c.id;
  }

  function addSpan(severity) {
    var sel = lastSelection;
    if (!sel) { message = t("selectFirst"); render(); return; }
    var cat = document.getElementById("span-category").value || null;
    record(state.pos, function (a) {
      var spans = (a.payload.spans || []).filter(function (s) {
        return !(s.start === sel.start && s.end === sel.end && s.severity === severity && s.category === cat);
      });
      spans.push({start: sel.start, end: sel.end, severity: severity, category: cat});
      a.payload.spans = sortSpans(spans);
    });
    lastSelection = null;
    if (window.getSelection) { window.getSelection().removeAllRanges(); }
    render();
  }

  // spans in the order of the output, those marking missing content (no place) last
  function sortSpans(spans) {
    return spans.map(function (s, i) { return [s, i]; }).sort(function (x, y) {
      var a = x[0], b = y[0];
      if (!!a.missing !== !!b.missing) { return a.missing ? 1 : -1; }
      if (a.missing) { return x[1] - y[1]; }
      return a.start - b.start || a.end - b.end || x[1] - y[1];
    }).map(function (x) { return x[0]; });
  }

  function addMissing() {
    var hasOmission = (PACK.categories || []).some(function (c) { return c.id === "omission"; });
    var cat = hasOmission ? "omission" : (document.getElementById("span-category").value || null);
    record(state.pos, function (a) {
      a.payload.spans = sortSpans((a.payload.spans || []).concat([{missing: true, severity: "minor", category: cat}]));
    });
    render();
  }

  function setSeverity(index, severity) {
    record(state.pos, function (a) {
      var spans = (a.payload.spans || []).slice();
      var sp = {};
      Object.keys(spans[index]).forEach(function (k) { sp[k] = spans[index][k]; });
      sp.severity = severity;
      spans[index] = sp;
      a.payload.spans = spans;
    });
    render();
  }

  function setEsaScore(raw) {
    var text = String(raw).trim();
    if (text === "") {
      record(state.pos, function (a) { delete a.payload.esa_score; });
      render(); return;
    }
    var value = Number(text);
    if (!/^\d{1,3}$/.test(text) || value > 100) { message = t("esaRange"); render(); return; }
    record(state.pos, function (a) { a.payload.esa_score = value; });
    render();
  }

  function removeSpan(index) {
    record(state.pos, function (a) {
      var spans = (a.payload.spans || []).slice();
      spans.splice(index, 1);
      a.payload.spans = spans;
    });
    render();
  }

  function choiceRow(title, options, selected, onPick, rowId, active) {
    var row = el("div", "question" + (active ? " active" : ""));
    row.id = rowId;
    row.appendChild(el("div", "qtitle", (active ? "▶ " : "") + title));
    var choices = el("div", "choices");
    options.forEach(function (o) {
      var b = button(o.label, "choice" + (o.value === selected ? " on" : ""), function () { onPick(o.value); },
                     rowId + "-" + String(o.value).replace(/\s+/g, "-"));
      b.setAttribute("aria-pressed", o.value === selected ? "true" : "false");
      choices.appendChild(b);
    });
    row.appendChild(choices);
    return row;
  }

  function rate(dim, value) {
    record(state.pos, function (a) { a[dim] = value; });
    state.active = moveScale(dim, 1);
    save(); render();
  }

  function rateDoc(dim, value) {
    var k = docOf(state.pos);
    if (k === null) { return; }
    recordDoc(k, function (a) { a[dim] = value; });
    state.docActive = moveScale(dim, 1);
    save(); render();
  }

  function toggleDocMode(on) {
    commitDrafts();
    state.docMode = on && docOf(state.pos) !== null;
    state.docActive = "adequacy";
    message = "";
    save(); render();
  }

  function renderDocument(root) {
    var k = docOf(state.pos);
    if (k === null) { return; }
    var doc = PACK.documents[k], answer = docAnswerOf(k);
    var s = section(t("rateDocument") + " — " + doc.document + (doc.run_label ? " · " + doc.run_label : ""));
    s.id = "document-rating";
    s.classList.add("document");
    if (state.docMode) { s.classList.add("on"); }
    s.appendChild(el("p", "hint", t("documentHint").replace("{doc}", doc.document).replace("{n}", doc.entries)));
    ["adequacy", "fluency"].forEach(function (dim) {
      var labels = t(dim + "Labels");
      var options = [1, 2, 3, 4, 5].map(function (v) { return {value: v, label: v + " " + labels[v - 1]}; });
      s.appendChild(choiceRow(t(dim), options, answer[dim], function (v) {
        state.docMode = true; rateDoc(dim, v);
      }, "doc-" + dim, state.docMode && state.docActive === dim));
    });
    var note = el("textarea", "note");
    note.id = "doc-note"; note.rows = 2; note.placeholder = t("docNote");
    var d = state.drafts["doc:" + k];
    note.value = d && "note" in d ? d.note : (answer.note || "");
    note.addEventListener("input", function () {
      state.drafts["doc:" + k] = {note: note.value}; save();
    });
    note.addEventListener("change", function () { commitDrafts(); refreshStatus(); });
    s.appendChild(note);
    s.appendChild(button(state.docMode ? t("backToSegment") : t("rateDocumentBtn"), "small",
                         function () { toggleDocMode(!state.docMode); }, "rate-document"));
    root.appendChild(s);
  }

  function answerTask(key, value) {
    record(state.pos, function (a) { a.payload[key] = value; });
    render();
  }

  function renderQuestions(root, answer) {
    var q = section(null);
    q.classList.add("questions");
    if (TASK === "A") {
      ["adequacy", "fluency"].forEach(function (dim) {
        var labels = t(dim + "Labels");
        var options = [1, 2, 3, 4, 5].map(function (v) { return {value: v, label: v + " " + labels[v - 1]}; });
        q.appendChild(choiceRow(t(dim), options, answer[dim], function (v) { rate(dim, v); }, dim,
                                state.active === dim));
      });
      var flag = el("label", "flag");
      var box = el("input");
      box.type = "checkbox"; box.id = "flag"; box.checked = !!answer.flagged;
      box.addEventListener("change", function () { record(state.pos, function (a) { a.flagged = box.checked; }); render(); });
      flag.appendChild(box); flag.appendChild(document.createTextNode(" " + t("flag")));
      q.appendChild(flag);
      var note = el("textarea", "note");
      note.id = "note"; note.rows = 2; note.placeholder = t("note");
      var d = state.drafts[String(state.pos)];
      note.value = d && "note" in d ? d.note : (answer.note || "");
      note.addEventListener("input", function () { draft("note", note.value); });
      note.addEventListener("change", function () { commitDrafts(); refreshStatus(); });
      q.appendChild(note);
    } else {
      QUESTIONS[TASK].forEach(function (spec, index) {
        var options = spec[2].map(function (o) {
          return {value: o[0], label: o[2].toUpperCase() + " " + t(o[1])};
        });
        q.appendChild(choiceRow(t(spec[1]), options, answer.payload[spec[0]], function (v) { answerTask(spec[0], v); },
                                spec[0], index === 0 ? answer.payload[spec[0]] == null : answer.payload[QUESTIONS[TASK][0][0]] != null));
      });
    }
    root.appendChild(q);
  }

  function renderSpans(root, item, answer) {
    var s = section(t("spans"));
    s.appendChild(el("p", "hint", t("spansHint")));
    var tools = el("div", "spantools");
    var select = el("select");
    select.id = "span-category";
    var none = el("option", null, t("noCategory")); none.value = ""; select.appendChild(none);
    (PACK.categories || []).forEach(function (c) {
      var o = el("option", null, categoryLabel(c)); o.value = c.id; select.appendChild(o);
    });
    select.setAttribute("aria-label", t("category"));
    tools.appendChild(select);
    // pointerdown keeps the selection on touch screens (the button would otherwise take it)
    [["minor", "span-minor"], ["major", "span-major"], ["critical", "span-critical"]].forEach(function (x) {
      var b = button(t(x[0]), "choice " + x[0], function () { addSpan(x[0]); }, x[1]);
      b.addEventListener("pointerdown", function () { rememberSelection(); });
      b.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
      tools.appendChild(b);
    });
    tools.appendChild(button(t("missing"), "choice missing", addMissing, "span-missing"));
    s.appendChild(tools);
    var score = el("label", "esa");
    score.appendChild(document.createTextNode(t("esaScore") + " "));
    var input = el("input");
    input.type = "number"; input.min = "0"; input.max = "100"; input.step = "1"; input.id = "esa-score";
    input.title = t("esaHint");
    input.value = answer.payload.esa_score == null ? "" : String(answer.payload.esa_score);
    input.addEventListener("change", function () { setEsaScore(input.value); });
    score.appendChild(input);
    s.appendChild(score);
    var spans = answer.payload.spans || [];
    var list = el("ul", "spans");
    list.id = "span-list";
    var text = outputText(item);
    spans.forEach(function (sp, i) {
      var li = el("li", sp.severity);
      var chars = Array.from(text);
      li.appendChild(el("span", "spantext", sp.missing ? t("missingSpan") : chars.slice(sp.start, sp.end).join("")));
      var cat = (PACK.categories || []).filter(function (c) { return c.id === sp.category; })[0];
      var sev = el("select", "severity");
      sev.id = "span-severity-" + i;
      sev.setAttribute("aria-label", t("severity"));
      ["minor", "major", "critical"].forEach(function (v) {
        var o = el("option", null, t(v)); o.value = v; o.selected = v === sp.severity; sev.appendChild(o);
      });
      sev.addEventListener("change", function () { setSeverity(i, sev.value); });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(sev);
      li.appendChild(el("span", "spanmeta", cat ? " · " + categoryLabel(cat) : ""));
      li.appendChild(button("×", "remove", function () { removeSpan(i); }, "span-remove-" + i));
      list.appendChild(li);
    });
    if (!spans.length) { list.appendChild(el("li", "none", t("noSpans"))); }
    s.appendChild(list);
    root.appendChild(s);

    var c = section(t("correction"));
    var area = el("textarea", "correction");
    area.id = "correction"; area.rows = 2; area.placeholder = t("correctionHint"); area.maxLength = MAX_CORRECTION;
    area.setAttribute("lang", PACK.language.target);
    var d = state.drafts[String(state.pos)];
    area.value = d && "correction" in d ? d.correction : (answer.payload.correction || "");
    area.addEventListener("input", function () { draft("correction", area.value); });
    area.addEventListener("change", function () { commitDrafts(); refreshStatus(); });
    c.appendChild(area);
    (item.forms || []).forEach(function (w, wi) {
      var box = el("div", "forms");
      box.appendChild(el("p", "hint", t("forms").replace("{word}", w.token)));
      w.forms.forEach(function (f, fi) {
        var row = el("div", "form" + (f.gold ? " gold" : ""));
        row.appendChild(button(t("useForm") + " " + f.form, "small", function () {
          draft("correction", f.corrected); commitDrafts(); render();
        }, "form-" + wi + "-" + fi));
        row.appendChild(el("span", "analysis", " " + f.analysis + " (" + (f.gold ? t("gold") : (f.changed || "")) + ")"));
        box.appendChild(row);
      });
      c.appendChild(box);
    });
    root.appendChild(c);
  }

  function rememberSelection() {
    var box = document.getElementById("output");
    if (!box) { return; }
    var sel = selectionIn(box);
    if (sel) { lastSelection = sel; return; }
    var browserSel = window.getSelection();
    if (browserSel && !browserSel.isCollapsed) { lastSelection = null; } // text selected elsewhere
  }

  function refreshStatus() {
    var status = document.getElementById("status");
    if (status) { status.textContent = message || t(state.docMode ? "keysDoc" : "keys" + TASK); }
    var progress = document.getElementById("progress");
    if (progress) { progress.textContent = progressText(); }
  }

  function progressText() {
    var done = PACK.items.filter(function (_, i) { return complete(i); }).length;
    return (state.pos + 1) + " " + t("of") + " " + PACK.items.length + " · " + done + " " + t("answered");
  }

  function render() {
    var app = document.getElementById("app");
    var active = document.activeElement && document.activeElement.id;
    app.textContent = "";
    document.documentElement.lang = lang();
    var pos = state.pos, item = PACK.items[pos];

    var head = el("header", "top");
    head.appendChild(el("h1", null, t("title") + " · " + (PACK.language.target_name || PACK.language.target)));
    var progress = el("div", "progress", progressText());
    progress.id = "progress";
    head.appendChild(progress);
    var tools = el("div", "tools");
    tools.appendChild(button(t("language"), "small", function () {
      state.lang = lang() === "fr" ? "en" : "fr"; save(); render();
    }, "lang"));
    tools.appendChild(button(t("exportBtn"), "small primary", exportAnswers, "export"));
    head.appendChild(tools);
    app.appendChild(head);
    if (PACK.blind) { app.appendChild(el("p", "hint", t("blind"))); }

    var answer = answerOf(pos);
    var main = el("main");
    var src = section(t("source"));
    var srcText = el("div", "text", item.source);
    srcText.setAttribute("lang", PACK.language.source);
    src.appendChild(srcText);
    main.appendChild(src);
    if (item.reference !== undefined && item.reference !== null && !PACK.blind) {
      var ref = section(TASK === "B" ? t("pairA") : t("reference"));
      var scripts = PACK.scripts || [];
      var shown = item.reference_scripts && item.reference_scripts[refScript()];
      var refText = el("div", "text", shown || item.reference);
      refText.id = "reference";
      refText.setAttribute("lang", PACK.language.target);
      ref.appendChild(refText);
      if (item.reference_scripts && scripts.length > 1) {
        var bar = el("div", "scripts");
        bar.appendChild(el("span", "hint", t("script") + ": "));
        scripts.forEach(function (sc) {
          var b = button(sc, "small" + (sc === refScript() ? " chosen" : ""), function () {
            state.refScript = sc; save(); render();
          }, "script-" + sc);
          bar.appendChild(b);
        });
        ref.appendChild(bar);
        if (shown && shown !== item.reference) { ref.appendChild(el("div", "hint", item.reference)); }
      }
      main.appendChild(ref);
    }
    var out = section((TASK === "B" ? t("pairB") : t("output")) + (item.run_label ? " — " + item.run_label : ""));
    out.appendChild(renderOutput(item, OUTPUT_TASK ? (answer.payload.spans || []) : []));
    if (TASK === "C") {
      out.appendChild(el("p", "word", t("word") + ": " + item.word));
    }
    if (TASK === "B" && item.classes && item.classes.length) {
      out.appendChild(el("p", "hint", t("classes") + ": " + item.classes.join(", ")));
    }
    main.appendChild(out);
    if (item.context && item.context.length) {
      var ctx = section(t("context"));
      item.context.forEach(function (c) {
        var p = el("div", "context" + (c.offset < 0 ? " before" : " after"));
        p.appendChild(el("span", "ctxsource", c.source));
        if (c.reference && !PACK.blind) { p.appendChild(el("span", "ctxref", c.reference)); }
        ctx.appendChild(p);
      });
      main.appendChild(ctx);
    }
    renderQuestions(main, answer);
    if (TASK === "A") { renderDocument(main); }
    if (OUTPUT_TASK) { renderSpans(main, item, answer); }
    app.appendChild(main);

    var nav = el("nav", "bottom");
    nav.appendChild(button("← " + t("prev"), "nav", function () { go(state.pos - 1); }, "prev"));
    nav.appendChild(button(t("nextOpen"), "nav primary", nextOpen, "next-open"));
    nav.appendChild(button(t("next") + " →", "nav", function () { go(state.pos + 1); }, "next"));
    nav.appendChild(button(t("undo"), "nav small", undo, "undo"));
    app.appendChild(nav);
    var status = el("p", "status", message || t(state.docMode ? "keysDoc" : "keys" + TASK));
    status.id = "status";
    app.appendChild(status);
    var who = el("p", "hint", t("reviewer") + ": " + PACK.reviewer.name + " · " + PACK.pack_id);
    app.appendChild(who);
    if (active) {
      var again = document.getElementById(active);
      if (again && (again.tagName === "TEXTAREA" || again.tagName === "SELECT")) { again.focus(); }
    }
  }

  // ------------------------------------------------------------------ keyboard
  function inField(target) {
    var tag = target && target.tagName;
    return tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT";
  }

  document.addEventListener("selectionchange", rememberSelection);

  // ------------------------------------------------------------------ keys (the shared key map)
  function bindingOf(list, ev) {
    var name = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    var ctrl = ev.ctrlKey || ev.metaKey;
    for (var i = 0; i < list.length; i++) {
      var b = list[i];
      // Shift counts for named keys (Tab, Enter) and Ctrl combinations; a character already says
      // whether Shift made it (digits need Shift on French keyboards)
      var shiftOk = (b.ctrl || name.length > 1) ? !!b.shift === ev.shiftKey : true;
      if (b.key === name && !!b.ctrl === ctrl && shiftOk && !ev.altKey) { return b; }
    }
    return null;
  }

  function moveScale(active, step) {
    var scales = KEYMAP.scales, i = scales.indexOf(active) + step;
    if (KEYMAP.wrap) { return scales[((i % scales.length) + scales.length) % scales.length]; }
    return scales[Math.max(0, Math.min(scales.length - 1, i))];
  }

  document.addEventListener("keydown", function (ev) {
    var key = ev.key;
    if (inField(ev.target) && ev.target.type !== "checkbox") {
      // typing goes to the field (Ctrl+Z included: the field's own undo); Enter and Esc leave it,
      // keeping what was typed, so the next keys rate again
      var fb = bindingOf(KEYMAP.field_keys, ev);
      if (fb && fb.action === "leave_field") {
        ev.preventDefault();
        ev.target.blur();
        commitDrafts(); refreshStatus();
      }
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && (key === "y" || key === "Y")) { ev.preventDefault(); redo(); return; }
    var b = bindingOf(KEYMAP.keys, ev);
    if (b && b.action === "undo") { ev.preventDefault(); undo(); return; }
    if (b && b.action === "redo") { ev.preventDefault(); redo(); return; }
    if (b && b.action === "next_unrated") { ev.preventDefault(); nextOpen(); return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (key === "ArrowRight") { go(state.pos + 1); return; }
    if (key === "ArrowLeft") { go(state.pos - 1); return; }
    if (TASK === "A" && !b && (key === "d" || key === "D") && !ev.shiftKey && docOf(state.pos) !== null) {
      ev.preventDefault(); toggleDocMode(!state.docMode); return;
    }
    if (TASK === "A" && state.docMode) {
      var leave = bindingOf(KEYMAP.field_keys, ev);  // Esc (Enter went to the next unanswered item above)
      if (leave && leave.action === "leave_field") { ev.preventDefault(); toggleDocMode(false); return; }
      if (!b) { return; }
      ev.preventDefault();
      if (b.action === "rate") { rateDoc(state.docActive, b.value); return; }
      if (b.action === "next_scale" || b.action === "previous_scale") {
        state.docActive = moveScale(state.docActive, b.action === "next_scale" ? 1 : -1);
        save(); render();
      }
      return;
    }
    if (TASK === "A" && !b && (key === "o" || key === "O") && !ev.shiftKey) {
      ev.preventDefault(); addMissing(); return;
    }
    if (TASK === "A" && !b && (key === "e" || key === "E") && !ev.shiftKey) {
      var field = document.getElementById("esa-score");
      if (field) { ev.preventDefault(); field.focus(); field.select(); }
      return;
    }
    if (TASK === "A") {
      if (!b) { return; }
      ev.preventDefault();
      if (b.action === "rate") { rate(state.active, b.value); return; }
      if (b.action === "next_scale" || b.action === "previous_scale") {
        state.active = moveScale(state.active, b.action === "next_scale" ? 1 : -1);
        save(); render(); return;
      }
      if (b.action === "flag") {
        record(state.pos, function (a) { a.flagged = !a.flagged; });
        render();
      }
      return;
    }
    var lower = key.length === 1 ? key.toLowerCase() : key;
    QUESTIONS[TASK].forEach(function (spec) {
      spec[2].forEach(function (o) {
        if (o.slice(2).indexOf(lower) >= 0) { ev.preventDefault(); answerTask(spec[0], o[0]); }
      });
    });
  });

  window.addEventListener("pagehide", function () { save(); });
  window.mtevalReviewPack = {answersDocument: answersDocument, sha256Hex: sha256Hex, hmacSha256Hex: hmacSha256Hex,
                             canon: canon};
  if (state.pos >= PACK.items.length) { state.pos = 0; }
  render();
}());
