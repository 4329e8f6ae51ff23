import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckConfig
import AuthDeckOAuth
#if canImport(Glibc)
import Glibc
#endif

/// Signing in to a cookie site through a real browser window: `authdeck login sp --browser`,
/// and the deck's Enter and `a` when a SharePoint provider's flow is `browser`.
///
/// The person signs in however their tenant wants (federation, MFA, conditional access) in a
/// `BrowserWindow`; as soon as the site's cookies exist they are kept exactly as an import keeps
/// a jar's (`CookieImport`: the site's unexpired cookies, checked, one account per user), so a
/// window and a file can never disagree on what is stored.
public struct BrowserSignIn: Sendable {
    /// The cookies that say a person is signed in to a SharePoint site: FedAuth (the site's
    /// own) and rtFa (the tenant's).
    public static let siteCookies = ["FedAuth", "rtFa"]
    /// The account's name when the person gives none (`--username`): the window tells
    /// authdeck the cookies, not who signed in.
    public static let defaultUsername = "browser"

    let wiring: ProviderWiring
    let config: DeckConfig

    public init(wiring: ProviderWiring, config: DeckConfig) {
        self.wiring = wiring
        self.config = config
    }

    /// Whether `flow` of `adapter` is this sign-in: a browser sign-in of a provider whose
    /// credentials are cookies. The one rule the command line and the deck both ask.
    public static func handles(_ flow: SignInFlow, of adapter: any ProviderAdapter) -> Bool {
        flow == .browser && adapter.capabilities.producesCookies
    }

    /// Opens the window on `profile`'s site and saves its cookies as `username`'s account.
    /// `stopOnSignals` (the command line): Ctrl-C, SIGTERM and SIGHUP close the window and
    /// delete its profile first, then end the process as the signal would have.
    public func run(_ profile: ProviderProfile, username: String?, timeout: TimeSpan, presenter: any SignInPresenter,
                    stopOnSignals: Bool = false) async throws -> StoredAccount {
        guard let site = profile.site else {
            throw Refusal.usage("provider \"\(TerminalText.inert(profile.id))\" has no options.site; the browser sign-in opens the site it names")
        }
        let browser = try SignInBrowser.find(configured: profile.options["browser"], providerId: profile.id, environment: wiring.environment)
        let window = BrowserWindow(browser: browser, extraArguments: try BrowserTestArguments.from(wiring.environment),
                                  environment: ChildEnvironment.scrubbed(wiring.environment, providers: config.providers))
        let store = wiring.store, clock = wiring.clock
        try store.append(DeckEvent(at: clock.now(), kind: .signInStarted, providerId: profile.id,
                                   detail: "flow browser (\(URL(fileURLWithPath: browser.executable).lastPathComponent))"))
        func failed(_ failure: AuthFailure) -> AuthFailure {
            try? store.append(DeckEvent(at: clock.now(), kind: .signInFailed, providerId: profile.id, detail: "\(failure.code): \(failure.remedy)"))
            return failure
        }
        await presenter.present(.notice("Sign in to \(site) in the browser window that opens (\(browser.executable)); "
                                         + "it closes by itself once the site's cookies are set (waiting up to \(timeout))."))
        let url = site.origin + "/"
        let ending: BrowserWindow.Ending
        do {
            let open = { @Sendable in try await window.run(url: url, site: site, wanted: Self.siteCookies, timeout: timeout) }
            ending = try await stopOnSignals ? Self.cancellingOnSignals(open) : open()
        } catch is CancellationError {
            _ = failed(AuthFailure(.declined, code: "cancelled", remedy: "the sign-in was cancelled; the browser was closed and nothing was saved"))
            throw CancellationError()
        }
        switch ending {
        case .signedIn(let cookies):
            let now = clock.now()
            let kept = try CookieImport(signedIn: cookies, browser: browser.executable, profile: profile, site: site, now: now)
            let account = try kept.save(username: username ?? Self.defaultUsername, in: store, at: now)
            guard let stored = try store.account(id: account.id) else { throw Refusal.failure("the account \(account.id) was removed meanwhile") }
            return stored
        case .closed:
            throw failed(AuthFailure(.declined, code: "cancelled", remedy: "the browser window was closed before \(site) set its sign-in cookies ("
                                        + Self.siteCookies.joined(separator: ", ") + "); sign-in cancelled, nothing was saved"))
        case .timedOut:
            throw failed(SignInTimeout.failure("no sign-in to \(site) in the browser window", within: timeout))
        }
    }

    /// Runs `body` in a task that SIGINT, SIGTERM and SIGHUP cancel; once it has ended (the
    /// window closed, its profile deleted) the process ends with the signal, as it would have.
    static func cancellingOnSignals<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let caught = CaughtSignal()
        var saved: [(Int32, sigaction)] = []
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var old = sigaction()
            sigaction(sig, nil, &old)
            saved.append((sig, old))
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                _ = caught.value.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        let result = await task.result
        sources.forEach { $0.cancel() }
        for (sig, old) in saved {
            var previous = old
            sigaction(sig, &previous, nil)
        }
        let sig = caught.value.load(ordering: .sequentiallyConsistent)
        if sig != 0 {
            FileHandle.standardError.write(Data("authdeck: sign-in cancelled; the browser was closed, its profile deleted and nothing was saved\n".utf8))
            // This thread may be one that blocks signals (the runtime's): unblock it here, so the
            // signal ends the process now rather than waiting, pending, while the error is reported.
            signal(sig, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, sig)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(sig)
        }
        return try result.get()
    }

    /// The first signal that cancelled the window, set on libdispatch's queue.
    final class CaughtSignal: Sendable {
        let value = Atomic<Int32>(0)
    }
}
