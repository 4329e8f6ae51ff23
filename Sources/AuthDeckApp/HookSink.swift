import AuthDeckCore

/// Where `KeepAlive` sends an account event for a `[hooks]` command: the executable runs it as
/// a child process that learns only the event, never a secret.
public protocol HookSink {
    /// Runs `command` for `event` and waits for it; its status, nil when it could not run.
    @discardableResult
    func run(_ command: String, event: String, account: Account, expiresAt: Instant?, message: String?) async -> Int32?
}
