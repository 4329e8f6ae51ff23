#if canImport(Glibc)
import Glibc
#endif

/// What the front knew when it handed a command to `authdeck-full`: the account is certain and
/// its token must be renewed, so the network comes next.
///
/// Why: `authdeck-full` can then load libcurl (~10 ms and some 30 libraries) on a thread of its
/// own while it starts, opens the store and takes the lease, instead of after. A hint and
/// nothing more: it decides no answer — a wrong one costs a library load or saves none — so
/// it needs no seal. It travels in the environment (the front's `exec` keeps argv as typed)
/// and is taken out again at once, so no child of `authdeck-full` inherits it.
public enum HandoverHint {
    static let variable = "AUTHDECK_FRONT_HINT"
    static let renewalDue = "renewal-due"

    /// Tells the `authdeck-full` this process is about to `exec` that a renewal is due.
    public static func markRenewalDue() {
        setenv(variable, renewalDue, 1)
    }

    /// Whether the front said a renewal is due; removes the hint from the environment.
    public static func takeRenewalDue() -> Bool {
        guard let value = getenv(variable) else { return false }
        let due = String(cString: value) == renewalDue
        unsetenv(variable)
        return due
    }
}
