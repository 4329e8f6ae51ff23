/// What opens a sign-in page in the person's browser: `BrowserOpener`, or a test's recorder.
///
/// Why a port: a sign-in flow reaches the browser through its adapters' context, and a
/// command run in-process must not start the machine's browser while the test still sees
/// which URL would have been opened.
public protocol URLOpening: Sendable {
    /// Tries to open `url`; the command that was started, or nil when none could be.
    @discardableResult
    func open(_ url: String) -> String?
}
