/// What a sign-in needs to show a person while it waits for them.
public enum SignInPrompt: Equatable, Sendable {
    /// Device authorization: open `verificationURI` and enter `userCode`.
    case deviceCode(userCode: String, verificationURI: String, verificationURIComplete: String?,
                    message: String?, expiresAt: Instant)
    /// Authorization code: the URL to open; `opened` says whether a browser was started.
    case browser(url: String, opened: Bool)
    /// The user asked too fast or the code expired and a new one is being requested.
    case notice(String)
}

/// The port through which a flow shows prompts (the CLI prints them, the TUI draws a modal).
public protocol SignInPresenter: Sendable {
    func present(_ prompt: SignInPrompt) async
    /// Asks a yes/no question (e.g. "the code expired — get a new one?"); false when no
    /// person can answer.
    func confirm(_ question: String) async -> Bool
    /// Asks for `account`'s password without showing it (the deck's re-sign-in of a provider
    /// whose only flow a person can follow there is a password), saying `note` with it (why it
    /// is asked again); nil when nobody can answer or the person cancels.
    func password(for account: String, note: String?) async -> Secret?
}

extension SignInPresenter {
    public func confirm(_ question: String) async -> Bool { false }
    public func password(for account: String, note: String?) async -> Secret? { nil }
}
