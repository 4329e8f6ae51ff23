/// AuthDeckApp: the use cases — what a person or script asks authdeck to do, written once and
/// called alike by the CLI, the deck and `watch` (a token, cookies, renewal, sign-in, sign-out,
/// prune, imports, requests), composed with the real world by `ProviderWiring`.
///
/// Owns: `Renewal` (the one silent renewal: needs, pacing, concurrency), `ReportedError`'s
/// app-level errors (`Refusal`, `TokenAccess.NeedsSignIn`), the demo's seed.
/// Must not import: AuthDeckUI, AuthDeckTerminal, ArgumentParser — no wording for a screen,
/// no flag parsing; results are values the front ends format.
public enum AuthDeckApp {}
