import AuthDeckCore

/// A file named like a rescue file that no authdeck command can use: damaged, not the user's
/// own private file, or sealed under another key or for another account.
///
/// Why its own error: a rescue file that cannot be committed *yet* (a full disk) must not be
/// deleted, and the warning says so; this one never will be, and telling the person to keep it
/// was wrong advice. It is left in place (never read for secrets, never deleted by authdeck).
struct RescueFileUnusable: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String {
        "\(TerminalText.inert(path)): not a rescue file authdeck can use (\(reason)); it is left as it is — remove it if you did not put it there"
    }
}
