#if canImport(Glibc)
import Glibc
#endif

/// What a passphrase and the file that holds one must be: the key file's own rules, since the
/// passphrase opens the same data key.
///
/// Why a length only for a new passphrase: a store sealed with a short one must still open
/// (refusing it would lock its owner out); the rule applies when a passphrase is first set
/// (`key migrate --to passphrase`, or when it is changed), where the person can choose again.
public enum PassphraseRules {
    /// The fewest characters a new passphrase may have.
    public static let minimumLength = 8

    /// Why `chosen` cannot be a new passphrase, or nil when it can. Never quotes it.
    public static func problem(withNew chosen: String) -> String? {
        if chosen.count < minimumLength {
            return "a new passphrase needs at least \(minimumLength) characters; choose a longer one (nothing changed)"
        }
        if chosen.allSatisfy(\.isWhitespace) {
            return "a new passphrase cannot be only spaces; choose another (nothing changed)"
        }
        return nil
    }

    /// Refuses a passphrase file another user could read or replace (a mode with group or
    /// other bits, another owner, a link, a FIFO), as the key file is refused, with the chmod
    /// that fixes it. Nothing at `path` passes: the caller says the file is missing.
    public static func requirePrivateFile(_ path: String) throws {
        try FileSafety.requirePrivateFile(path, what: "passphrase file")
    }
}
