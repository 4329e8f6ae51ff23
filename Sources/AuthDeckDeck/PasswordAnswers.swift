import Synchronization
import AuthDeckCore

/// Sign-ins waiting for a password typed into the deck, by account id: the sign-in's task
/// waits here while the loop shows the window, and the loop hands the answer over.
///
/// Why a place of its own: the sign-in runs off the loop (it talks to the provider) but the
/// password comes from the loop's keys; a cancelled sign-in (Esc, q) must stop waiting too.
final class PasswordAnswers: Sendable {
    private let waiting = Mutex<[String: CheckedContinuation<Secret?, Never>]>([:])

    /// Waits for the password of `id`'s sign-in after `ask` showed the window; nil when the
    /// sign-in is cancelled first (or asked again, which ends the older wait).
    func wait(for id: String, ask: () -> Void) async -> Secret? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Secret?, Never>) in
                let older = waiting.withLock { waiting in
                    defer { waiting[id] = c }
                    return waiting[id]
                }
                older?.resume(returning: nil)
                ask()
                // Cancelled before the wait was recorded: the handler found nothing to end.
                if Task.isCancelled { answer(id, nil) }
            }
        } onCancel: {
            answer(id, nil)
        }
    }

    /// Hands `password` (nil: none) to `id`'s waiting sign-in, if one waits.
    func answer(_ id: String, _ password: Secret?) {
        waiting.withLock { $0.removeValue(forKey: id) }?.resume(returning: password)
    }
}
