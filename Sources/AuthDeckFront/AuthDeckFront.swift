/// AuthDeckFront: the `authdeck` on PATH — serves a certainly valid cached token (`token`) in
/// a few milliseconds and `exec`s authdeck-full for everything else, unchanged.
///
/// Invariant: in any doubt (a record it does not know, a config changed since, an edited
/// row) it hands over rather than answers. Must not import: GRDB, TOMLKit, ArgumentParser,
/// full Foundation (FoundationEssentials only).
enum AuthDeckFront {}
