import Testing
import Foundation
import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckHTTP
import AuthDeckApp
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The reading commands — `accounts`, `events`, `status`, `providers` — run in-process
/// through `DeckContext`'s ports on a real store in a temporary home, their words caught by
/// `CapturedOutput` (what the binary would have printed; journeys still drive the binary).
struct CommandListingSeamTests {
    let seam = SeamHome()

    /// The table marks the default account; `--json` streams every account (the process is not
    /// ended: a test's output returns from `finishedStreaming`); an unknown `--provider` is an error.
    @Test func accountsListsTheStoreItIsGiven() async throws {
        let store = try seam.seed()
        try store.setDefaultAccount("work/0000a002", provider: "work")
        let table = CapturedOutput()
        try await AccountsCommand.parse([]).run(in: seam.context(table))
        let lines = table.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID") == true && lines.count == 1 + 14 + 1, "\(table.out)")
        #expect(lines.contains { $0.hasPrefix("work/0000a002 *") && $0.contains("jiro@contoso.com") }, "\(table.out)")
        #expect(lines.last == "* its provider's default account (`authdeck use`)")
        let json = CapturedOutput()
        try await AccountsCommand.parse(["--json", "--provider", "gl"]).run(in: seam.context(json))
        let rows = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]], "\(json.out)")
        #expect(rows.compactMap { $0["id"] as? String }.sorted() == ["gl/0000a006", "gl/0000a007"], "\(json.out)")
        let unknown = await #expect(throws: CLIError.self) {
            try await AccountsCommand.parse(["--provider", "nope"]).run(in: seam.context(CapturedOutput()))
        }
        #expect(unknown?.message.contains("no provider \"nope\"") == true, "\(String(describing: unknown))")
    }

    /// Before any store: "No accounts yet." and `[]`, and nothing is created.
    @Test func accountsWithoutAStoreCreatesNothing() async throws {
        let out = CapturedOutput(), json = CapturedOutput()
        try await AccountsCommand.parse([]).run(in: seam.context(out))
        try await AccountsCommand.parse(["--json"]).run(in: seam.context(json))
        #expect(out.out == "No accounts yet.\n" && json.out == "[]\n")
        #expect(!FileManager.default.fileExists(atPath: seam.home.file("data")))
    }

    /// What `logout` recorded is listed by account, in the table and in `--json`; a filter that
    /// names neither an account nor an event is a usage error.
    @Test func eventsListsWhatHappenedToAnAccount() async throws {
        let store = try seam.seed()
        try store.append(DeckEvent(at: seam.clock.now() - .hours(3), kind: .refreshFailed, accountId: "work/0000a011", providerId: "work",
                                   detail: "transient network: unreachable"))
        try store.append(DeckEvent(at: seam.clock.now() - .minutes(5), kind: .refreshed, accountId: "work/0000a001", providerId: "work"))
        let json = CapturedOutput()
        try await EventsCommand.parse(["--account", "work/0000a011", "--json"]).run(in: seam.context(json))
        let events = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]], "\(json.out)")
        #expect(events.map { $0["kind"] as? String } == ["refresh_failed"] && events.first?["account"] as? String == "work/0000a011")
        let table = CapturedOutput()
        try await EventsCommand.parse(["--since", "1h"]).run(in: seam.context(table))
        #expect(table.out.hasPrefix("TIME") && table.out.contains("work/0000a001") && !table.out.contains("work/0000a011"), "\(table.out)")
        let typo = await #expect(throws: CLIError.self) {
            try await EventsCommand.parse(["--account", "nobody-at-all"]).run(in: seam.context(CapturedOutput()))
        }
        #expect(typo?.status == ExitStatus.usage)
    }

    /// `status --json` counts the fixture's accounts by state; `--short` is the prompt line;
    /// before a store, the unborn status says where it will be.
    @Test func statusCountsTheStoreItIsGiven() async throws {
        let out = CapturedOutput()
        try await StatusCommand.parse([]).run(in: seam.context(out))
        #expect(out.out.contains("(not created yet: the first sign-in or import creates it)") && out.out.hasSuffix("accounts:   0\n"), "\(out.out)")
        let store = try seam.seed()
        let json = CapturedOutput()
        try await StatusCommand.parse(["--json"]).run(in: seam.context(json))
        let status = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        let expected = Dictionary(DeckFixture(now: seam.clock.now()).expectedStates.values.map { ($0, 1) }, uniquingKeysWith: +)
        let states = try #require(status["states"] as? [String: Int])
        #expect(states.filter { $0.value > 0 } == expected, "\(states)")
        #expect(status["accounts"] as? Int == 14 && status["providers"] as? Int == 5)
        let short = CapturedOutput()
        try await StatusCommand.parse(["--short"]).run(in: seam.context(short))
        let line = StatusLine.short(try DeckAssessment.read(store, config: try seam.config(DeckFixture.configTOML), now: seam.clock.now()))
        #expect(!line.isEmpty && short.out == line + "\n", "\(short.out)")
    }

    /// `providers` over the config and network ports: the fixture's providers with their
    /// account counts, and an `oidc` provider without a client_id checked against discovery
    /// fetched through the given network (an issuer without a registration endpoint is named).
    @Test func providersChecksDiscoveryOverTheNetworkItIsGiven() async throws {
        _ = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("GET", "https://issuer.test/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, #"{"issuer":"https://issuer.test","authorization_endpoint":"https://issuer.test/auth","token_endpoint":"https://issuer.test/token","jwks_uri":"https://issuer.test/jwks","response_types_supported":["code"]}"#)
        }
        let config = try seam.config(DeckFixture.configTOML + """

            [[provider]]
            id = "dyn"
            kind = "oidc"
            endpoints = { issuer = "https://issuer.test" }
            """)
        let json = CapturedOutput()
        try await ProvidersListCommand.parse(["--json"]).run(in: seam.context(json, http: http, config: config))
        let rows = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]], "\(json.out)")
        let byId = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
        #expect(rows.count == 6 && byId["work"]?["accounts"] as? Int == 8 && byId["gl"]?["accounts"] as? Int == 2, "\(json.out)")
        let dyn = try #require(byId["dyn"])
        #expect(dyn["client"] as? String == "unregistered" && dyn["discovery_unchecked"] == nil, "\(dyn)")
        #expect((dyn["problem"] as? String)?.contains("https://issuer.test offers no registration_endpoint") == true, "\(dyn)")
        #expect(http.requests.map(\.url) == ["https://issuer.test/.well-known/openid-configuration"])
        // The table says the same, and the config file in the home (five providers) was not read.
        let table = CapturedOutput()
        try await ProvidersListCommand.parse([]).run(in: seam.context(table, http: http, config: config))
        #expect(table.out.contains("dyn: not ready to sign in: this issuer needs a client_id") && table.out.contains("(edit \(config.path))"),
                "\(table.out)")
    }
}
