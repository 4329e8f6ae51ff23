import Foundation
import AuthDeckCore
import AuthDeckApp
#if canImport(Glibc)
import Glibc
#endif

/// Runs a `[hooks]` command for one account event: `sh -c COMMAND`, stdin from /dev/null,
/// output wherever `watch`'s goes (the journal under systemd), killed after 30 seconds.
///
/// The hook learns what happened only from `AUTHDECK_EVENT`, `AUTHDECK_ACCOUNT`,
/// `AUTHDECK_PROVIDER`, `AUTHDECK_USERNAME`, `AUTHDECK_EXPIRES_AT` and `AUTHDECK_MESSAGE` —
/// never a token, cookie, password or client secret (`environment` is a `ChildEnvironment`).
struct HookRunner: HookSink {
    let environment: [String: String]
    /// Where a hook that failed is said (`watch`'s stderr).
    let output: any CommandOutput
    let timeout: Double = 30

    /// Runs `command` and waits for it; returns its status (nil when it could not start or was killed for time).
    @discardableResult
    func run(_ command: String, event: String, account: Account, expiresAt: Instant?, message: String?) async -> Int32? {
        var env = environment
        env["AUTHDECK_EVENT"] = event
        env["AUTHDECK_ACCOUNT"] = account.id
        env["AUTHDECK_PROVIDER"] = account.providerId
        env["AUTHDECK_USERNAME"] = account.username
        env["AUTHDECK_EXPIRES_AT"] = expiresAt?.iso8601 ?? ""
        env["AUTHDECK_MESSAGE"] = message ?? ""
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(["/bin/sh", "-c", command], environment: env, stdinNull: true)
        } catch {
            output.warning("hook for \(event) could not start: \(error)")
            return nil
        }
        let pid = child.pid
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
            kill(pid, SIGKILL)
            output.warning("hook for \(event) ran longer than \(Int(timeout)) s and was stopped")
        }
        let status = await child.wait()
        watchdog.cancel()
        if status != 0 { output.warning("hook for \(event) (\(account.id)) exited with status \(status)") }
        return status
    }
}
