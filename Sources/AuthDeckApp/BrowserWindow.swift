import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckOAuth
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// A browser window a person signs in to a site in, whose cookies authdeck keeps: Chromium
/// (or Chrome, or Edge) on a private profile made for this one sign-in, driven over the
/// DevTools pipe, closed and its profile deleted as soon as the site's cookies exist.
///
/// Why a browser of its own rather than the person's: the site's cookies are HttpOnly, so
/// only the browser holding them can hand them over, and a throw-away profile keeps the
/// person's own browsing (and its keyring) out of it. Why a pipe and not a port: a DevTools
/// port is open to every local user; the pipe is authdeck's alone.
///
/// Every way out — cookies read, window closed, timeout, the task cancelled (Esc in the deck,
/// Ctrl-C on the command line) — closes the browser (killed by pid after a bound), reaps it
/// and deletes the profile before `run` returns.
public struct BrowserWindow: Sendable {
    public let browser: SignInBrowser
    /// Switches after authdeck's own, before the URL (only the tests' ones; `BrowserTestArguments`).
    public let extraArguments: [String]
    /// The browser's environment: authdeck's, without its secrets (`ChildEnvironment`).
    public let environment: [String: String]

    public enum Ending: Sendable {
        /// The site's cookies exist; every cookie the browser held is here.
        case signedIn([Cookie])
        /// The browser went away (the person closed its window) before they did.
        case closed
        /// `timeout` passed first.
        case timedOut
    }

    public init(browser: SignInBrowser, extraArguments: [String], environment: [String: String]) {
        (self.browser, self.extraArguments, self.environment) = (browser, extraArguments, environment)
    }

    /// Opens `url` and waits until every cookie named in `wanted` exists for `site` (with a
    /// value), the window closes, or `timeout` passes. Throws `CancellationError` when the task
    /// is cancelled — after the browser is gone and its profile deleted, as on every path.
    public func run(url: String, site: SiteHost, wanted: [String], timeout: TimeSpan) async throws -> Ending {
        let stop = StopFlag()
        let window = self
        let ending: Result<Ending, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: Result { try window.session(url: url, site: site, wanted: wanted, timeout: timeout, stop: stop) })
                }
            }
        } onCancel: {
            stop.raise()
        }
        if stop.isRaised { throw CancellationError() }
        return try ending.get()
    }

    /// Set by the task's cancellation, read by the session between its waits.
    final class StopFlag: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
        var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
    }

    /// The whole life of one window, on a thread of its own (it blocks in poll and waitpid).
    func session(url: String, site: SiteHost, wanted: [String], timeout: TimeSpan, stop: StopFlag) throws -> Ending {
        // A write to a browser that just went away must fail (EPIPE), not end authdeck.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        let profile = try Self.makeProfile(in: environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        defer { Self.removeProfile(profile) }
        let (pid, devtools) = try spawn(url: url, profile: profile)
        defer { Self.end(pid, devtools) }
        let deadline = Date().addingTimeInterval(TimeInterval(timeout.seconds))
        while true {
            if stop.isRaised { return .closed }
            if Date() >= deadline { return .timedOut }
            if Self.hasExited(pid) { return .closed }
            do {
                if let result = try devtools.call("Storage.getCookies", before: min(deadline, Date().addingTimeInterval(5))) {
                    let cookies = Self.cookies(result.array("cookies") ?? [])
                    let present = Set(cookies.filter { site.sends(cookieDomain: $0.domain) && !$0.value.exposedValue.isEmpty }.map(\.name))
                    if wanted.allSatisfy(present.contains) { return .signedIn(cookies) }
                }
                // Between polls: half a second, cut short only by the browser going away.
                let next = Date().addingTimeInterval(0.5)
                while Date() < next, !stop.isRaised { _ = try devtools.readAvailable(before: min(next, Date().addingTimeInterval(0.1))) }
            } catch is DevToolsPipe.Closed {
                return .closed
            } catch let refused as DevToolsPipe.Refused {
                throw Refusal.failure("\(browser.executable): \(refused) (is it a Chromium-family browser?); nothing was saved")
            }
        }
    }

    /// A private (0700) directory for the browser's profile, unique to this sign-in.
    static func makeProfile(in directory: String) throws -> String {
        var template = Array("\(directory)/authdeck-browser-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Refusal.failure("\(directory): cannot make a private directory for the browser's profile (\(String(cString: strerror(errno))))")
        }
        return String(cString: made)
    }

    /// Deletes the profile; the browser's helpers may still be writing for a moment after it
    /// exits, so it tries again for up to two seconds until nothing is left.
    static func removeProfile(_ profile: String) {
        let until = Date().addingTimeInterval(2)
        repeat {
            try? FileManager.default.removeItem(atPath: profile)
            if !FileManager.default.fileExists(atPath: profile) { return }
            usleep(50_000)
        } while Date() < until
    }

    /// Starts the browser in a process group of its own (a Ctrl-C at the terminal is
    /// authdeck's to handle, and the whole group can be ended), with the DevTools pipe on its
    /// fds 3 and 4 and nothing on its standard streams.
    func spawn(url: String, profile: String) throws -> (pid_t, DevToolsPipe) {
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0 else { throw Refusal.failure("cannot make a pipe for the browser: \(String(cString: strerror(errno)))") }
        guard pipe(&fromBrowser) == 0 else {
            toBrowser.forEach { close($0) }
            throw Refusal.failure("cannot make a pipe for the browser: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec (no other child inherits them), and above 4, so that placing them on 3
        // and 4 in the child never dup2s an fd onto itself (which would leave it close-on-exec).
        let fds = (toBrowser + fromBrowser).map { fd -> Int32 in
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            return moved
        }
        let (browserReads, ourOutput, ourInput, browserWrites) = (fds[0], fds[1], fds[2], fds[3])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, browserReads, 3)
        posix_spawn_file_actions_adddup2(&actions, browserWrites, 4)
        let argv = [browser.executable, "--user-data-dir=\(profile)", "--remote-debugging-pipe", "--no-first-run",
                    "--no-default-browser-check", "--password-store=basic"] + extraArguments + [url]
        var pid: pid_t = 0
        let rc = SpawnAttributes.with(ownGroup: true) { attr in
            SpawnStrings.with(argv, environment) { cArgs, cEnv in
                CrashHygiene.withInheritedLimit { posix_spawn(&pid, browser.executable, &actions, &attr, cArgs, cEnv) }
            }
        }
        close(browserReads)
        close(browserWrites)
        guard rc == 0 else {
            close(ourOutput)
            close(ourInput)
            throw Refusal.failure("cannot start \(browser.executable): \(String(cString: strerror(rc)))")
        }
        return (pid, DevToolsPipe(output: ourOutput, input: ourInput))
    }

    /// Whether the browser has exited (it stays unreaped, so its pid and group stay its own).
    static func hasExited(_ pid: pid_t) -> Bool {
        // With WNOHANG and nothing to report, Linux leaves the zeroed fields as they are.
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Asks the browser to close, waits up to five seconds, then kills its process group;
    /// reaps it and closes the pipe.
    static func end(_ pid: pid_t, _ devtools: DevToolsPipe) {
        if !hasExited(pid) { _ = try? devtools.send("Browser.close") }
        let until = Date().addingTimeInterval(5)
        while !hasExited(pid) && Date() < until { usleep(50_000) }
        // The group is the browser's own (its pid, held while it is unreaped): helpers still
        // running go with it.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        devtools.close()
    }

    /// The DevTools cookies (`Storage.getCookies`) as authdeck's: a session cookie has no expiry.
    /// An element that is not a cookie object is left out; an expiry beyond what a date can hold
    /// is read as none (a session cookie) rather than trapping the conversion.
    static func cookies(_ list: [JSONValue]) -> [Cookie] {
        list.compactMap { element in
            guard let c = element.object.map(JSONObject.init), let name = c.string("name"), let value = c.string("value"),
                  let domain = c.string("domain") else { return nil }
            let expires = c.fields["expires"]?.number?.double ?? -1
            let at = c.bool("session") == true || expires <= 0 ? nil : Int64(exactly: expires.rounded(.down))
            return Cookie(id: UUIDString.make(), name: name, value: Secret(value), domain: domain, path: c.string("path") ?? "/",
                          expiresAt: at.map(Instant.init(secondsSinceEpoch:)), secure: c.bool("secure") ?? false,
                          httpOnly: c.bool("httpOnly") ?? false)
        }
    }
}
