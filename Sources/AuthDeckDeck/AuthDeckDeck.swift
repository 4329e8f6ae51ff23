/// AuthDeckDeck: the open deck — its loop (`DeckRuntime`: keys and results in, `DeckReducer`,
/// frames out, on the terminal's one thread) and the work it hands off (`DeckWork`: renewals,
/// sign-ins, sign-outs, prunes and store reads through AuthDeckApp's use cases).
///
/// Owns: the loop's state and tasks (not Sendable: they stay on the loop's thread), the inbox
/// results come back through, the password answers a sign-in waits on, the first read.
/// Must not import: ArgumentParser, HTTP, OAuth, Providers — it runs use cases, never flows;
/// wording for standard error is the caller's (`notify`).
public enum AuthDeckDeck {}
