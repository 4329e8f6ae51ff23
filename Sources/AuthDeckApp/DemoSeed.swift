import AuthDeckCore
import AuthDeckConfig

/// Signs the demo's accounts in through the real adapters against the emulator, staging
/// their states (expiring, expired, wrong tenant, never completed) with its lifetime knobs.
public struct DemoSeed {
    let wiring: ProviderWiring
    let config: DeckConfig
    let admin: EmulatorAdmin

    public init(wiring: ProviderWiring, config: DeckConfig, admin: EmulatorAdmin) {
        self.wiring = wiring
        self.config = config
        self.admin = admin
    }

    /// Approves each device code at once, as taro@contoso.com.
    struct Quiet: SignInPresenter {
        let admin: EmulatorAdmin
        func present(_ prompt: SignInPrompt) async {
            if case .deviceCode(let code, _, _, _, _) = prompt {
                _ = try? await admin.call("device/approve", #"{"user_code":"\#(code)","username":"taro@contoso.com"}"#)
            }
        }
    }

    func signIn(_ provider: String, _ flow: SignInFlow, _ user: String?, _ password: String?) async throws {
        _ = try await CommandLineSignIn(wiring: wiring, config: config).run(
            provider, .init(flow: flow, username: user, openBrowser: false, passwordGiven: true), presenter: Quiet(admin: admin),
            password: { _ in Secret(password ?? "") }, note: { _ in })
    }

    /// One `authdeck request` of `provider`'s account through the emulator's WebGate at
    /// `path`: the challenge answered, so the deck shows the WebGate token it keeps.
    func throughWebGate(_ provider: String, path: String) async throws {
        guard let stored = try wiring.store.accounts(providerId: provider, subject: nil).first else {
            throw Refusal.failure("the demo could not sign \(provider) in")
        }
        let answer = try await AuthorizedRequest(for: stored, wiring: wiring, config: config, scopes: [])
            .send(method: "GET", url: admin.url + path, headers: [], body: nil, timeout: 30, accountId: stored.account.id) { _ in true }
        guard answer.status == 200 else {
            throw Refusal.failure("the demo's request through the WebGate at \(path) was answered HTTP \(answer.status)")
        }
    }

    public func run() async throws {
        try await signIn("work", .password, "taro@contoso.com", "taro-pass-123")
        _ = try await admin.call("lifetimes", #"{"access_token":120}"#)
        try await signIn("work", .password, "jiro@contoso.com", "jiro-pass-123")     // expiring in 2 minutes
        _ = try await admin.call("lifetimes", #"{"access_token":3600,"cookie":20}"#)
        try await signIn("sp-intranet", .device, "taro@contoso.com", nil)            // a cookie that expires in 20 s
        _ = try await admin.call("lifetimes", #"{"cookie":18000}"#)
        try await signIn("prod", .password, "dev@fabrikam.com", "dev-pass-123")      // the wrong tenant
        _ = try await admin.call("facebook/lifetimes", #"{"short":420}"#)
        try await signIn("fb", .device, nil, nil)                                    // near expiry
        try await signIn("whitepages", .password, "jiro@contoso.com", "jiro-pass-123")
        try await signIn("hr-rest", .password, "taro@contoso.com", "taro-pass-123")
        try await throughWebGate("hr-rest", path: "/webgate/hr/employees")
        try await signIn("oidc", .password, "taro@contoso.com", "taro-pass-123")
        // A sign-in that never completed (two hours ago): what prune is for. Staged from a real
        // sign-in with its credentials taken away, so its subject is hanako's and a re-sign-in
        // from its row (approved as hanako) mends that row instead of adding another.
        try await signIn("oidc", .password, "hanako@contoso.com", "hanako-pass-123")
        let now = wiring.clock.now()
        guard var hanako = try wiring.store.accounts(providerId: "oidc", subject: nil).first(where: { $0.account.username == "hanako@contoso.com" })?.account else {
            throw Refusal.failure("the demo could not stage hanako@contoso.com's abandoned sign-in")
        }
        (hanako.createdAt, hanako.lastSignInAt) = (now - .hours(2), nil)
        hanako.lastError = AccountError(errorClass: .declined, code: "access_denied", remedy: "the sign-in was declined", at: now - .hours(2))
        try wiring.store.update(hanako)
        try wiring.store.replaceCredentials(Credentials(), accountId: hanako.id)
    }
}
