import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// What the suites of the OAM Mobile and Social server type share (issue 41): provider "ms" on
/// the emulator, the real binary, and the emulator's own record of the REST calls it received
/// (PROVIDERS.md §5), so each suite states only its journeys.
protocol MobileSocialSuite {
    var idp: EmulatorProcess { get }
    var home: TempDirectory { get }
    var runner: BinaryRunner { get }
}

extension MobileSocialSuite {
    static var user: String { "taro@contoso.com" }
    static var password: String { "taro-pass-123" }

    /// Provider "ms": the Mobile and Social REST server type; `options` continues its options table.
    func configure(_ options: String = "") throws {
        try home.writeConfig("""
            [[provider]]
            id = "ms"
            kind = "oam"
            endpoints = { base = "\(idp.url)" }
            options = { server_type = "mobile-social", service_domain = "MobileServiceDomain", application_name = "WhitePages"\(options) }

            """)
    }

    func run(_ args: String..., password: String? = nil) throws -> BinaryRunner.Result {
        var r = runner
        if let password { r.environment["AUTHDECK_PASSWORD"] = password }
        return try r.run(args)
    }

    /// The password typed once: `login ms --password --username taro…`.
    func login(_ extra: String...) throws -> BinaryRunner.Result {
        var r = runner
        r.environment["AUTHDECK_PASSWORD"] = Self.password
        return try r.run(["login", "ms", "--password", "--username", Self.user] + extra)
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    func account() throws -> StoredAccount? {
        try store().accounts(includeQuarantined: true).first { $0.account.providerId == "ms" }
    }

    /// What the emulator's REST service received and holds.
    func report() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest").utf8)) as? [String: Any])
    }

    func calls() throws -> [[String: String]] { try report()["calls"] as? [[String: String]] ?? [] }
}
