import AuthDeckApp
import AuthDeckPlatform

/// Loads libcurl ahead when the front handed over a renewal (`HandoverHint`), so its ~10 ms
/// of loading overlap opening the store and taking the lease instead of following them.
///
/// Begun from the command's own async code, not from `main`: a `dlopen` holds glibc's TLS lock
/// while it maps and relocates, and every thread created meanwhile waits for it — Swift's
/// pool starts its first thread at the command's first hop, so a load begun before that hop
/// stalled the command until the libraries were mapped (strace: the thread's creation waited
/// 26 ms on the loader's lock).
enum NetworkWarmup {
    /// Whether the front said a renewal is due. Read (and taken out of the environment, which
    /// children must not inherit) by `main` before anything else runs.
    static let due = HandoverHint.takeRenewalDue()

    /// Begins the load when it is due; a request waits for it.
    static func beginIfDue() {
        if due { ProviderWiring.warmNetwork() }
    }
}
