import Synchronization
import AuthDeckCore

/// A sign-in's presenter that keeps every prompt it was shown, for a test to read (nobody
/// answers its questions).
final class RecordingPresenter: SignInPresenter {
    private let shown = Mutex([SignInPrompt]())
    var prompts: [SignInPrompt] { shown.withLock { $0 } }
    func present(_ prompt: SignInPrompt) async { shown.withLock { $0.append(prompt) } }
}
