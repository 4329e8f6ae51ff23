import Synchronization
import AuthDeckCore

/// The account's credentials with the refresh token a renewal heard as the provider's answer
/// was read (`RenewalRun.keepEarly`), for the renewal to keep should the rest of the
/// answer fail. A class: the hearing's closure and the renewal share it.
final class HeardRotation: Sendable {
    let credentials = Mutex<Credentials?>(nil)
}
