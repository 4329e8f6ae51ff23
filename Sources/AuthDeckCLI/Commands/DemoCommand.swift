import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckProviders
import AuthDeckApp
import AuthDeckTerminal
import AuthDeckUI
import AuthDeckDeck
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck demo`: the whole deck with no network and no real accounts.
///
/// Starts `authdeck-idp` on loopback, writes a temporary config with every provider kind
/// pointed at it, signs accounts in through the real flows so they land in different states
/// (valid, expiring in minutes, a SharePoint cookie about to expire, a wrong-tenant account,
/// a sign-in that never completed, a Facebook token near expiry, an OAM account with a
/// remembered username, an OAM Mobile and Social account that has been through a WebGate, a
/// generic OIDC account), and opens the deck on a temporary store.
/// Device codes are approved automatically, as a person would: 3 s after they appear and
/// only once the deck has polled twice. Everything is removed on exit: by the demo on `q`,
/// and by the emulator (which watches for its parent to go) on Ctrl-C, SIGTERM, SIGHUP or
/// SIGKILL; the next demo sweeps directories of demos that died with their emulator.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Try the deck against a local emulator: no network, no real accounts.")

    @Flag(name: .long, help: ArgumentHelp("Seed the demo store and print its paths, without opening the deck (for scripts).",
                                          discussion: "Point commands at it with AUTHDECK_STORE, AUTHDECK_KEY_FILE and AUTHDECK_CONFIG set to the printed paths. The emulator keeps running: stop it with `kill PID` (printed) and remove the printed directory."))
    var seedOnly = false

    /// The emulator's built-in users (`EmulatorDirectory.standard`, which this binary does not
    /// link), as `--seed-only` prints them and the README lists them.
    static let demoUsers = "taro@contoso.com:taro-pass-123 jiro@contoso.com:jiro-pass-123 hanako@contoso.com:hanako-pass-123 dev@fabrikam.com:dev-pass-123"

    func run() async throws {
        try await run(in: DeckContext(storeFlag: nil, configFlag: nil))
    }

    /// The command with its ports given (`DeckContext`): what `run` does. The demo's own
    /// context is derived from it, pointed at the demo's store, key and config.
    func run(in given: DeckContext) async throws {
        guard seedOnly || TerminalProbe.isInteractive else { throw CLIError.usage("the demo needs a terminal (or --seed-only)") }
        let tmp = FileManager.default.temporaryDirectory.path
        DemoDirectory.sweep(in: tmp)
        // A --seed-only demo outlives this process for the script that asked for it: its
        // directory is named apart, so the next demo's sweep leaves it alone.
        let dir = try DemoDirectory.create(in: tmp, seedOnly: seedOnly)
        let idp: DemoEmulator
        var registry: DemoRegistry
        do {
            registry = try DemoRegistry.issue(in: dir)
            idp = try DemoEmulator.start(followingThisProcessRemoving: seedOnly ? nil : dir, registry: registry)
            registry.url = idp.tlsURL
        } catch {
            try? FileManager.default.removeItem(atPath: dir)
            throw error
        }
        defer {
            if !seedOnly {
                idp.stop()
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        var env = given.environment
        env["AUTHDECK_STORE"] = dir + "/authdeck.db"
        env["AUTHDECK_KEY_FILE"] = dir + "/key"
        env["AUTHDECK_CONFIG"] = dir + "/config.toml"
        env["BROWSER"] = nil
        env["AUTHDECK_DEMO_OAM_SECRET"] = "oam-secret"  // the emulator's OAM client secret, not a real one
        let context = DeckContext(storeFlag: nil, configFlag: nil, environment: env, clock: given.clock, output: given.output,
                                  adapters: given.adapters, network: given.network, input: given.input)
        let config: DeckConfig, store: DeckStore
        do {
            try ConfigWriter.write(DemoEmulator.config(idp.url) + registry.credentialTOML, to: dir + "/config.toml")
            try registry.prepareDocker()
            config = try context.loadConfig()
            store = try context.openStore(creating: true)
            context.output.stderr("authdeck demo: emulator at \(idp.url); signing the demo accounts in…\n")
            try await DemoSeed(wiring: context.wiring(store), config: config, admin: EmulatorAdmin(url: idp.url)).run()
        } catch {
            // Even with --seed-only, a demo that could not be set up leaves nothing behind.
            idp.stop()
            try? FileManager.default.removeItem(atPath: dir)
            throw error
        }
        if seedOnly {
            // Everything a script or a person needs to use it: the OAM provider's secret
            // variable (without it `providers` says "not ready"), the users, and how to
            // approve a device code, since nothing approves them after this command; the
            // registry and the lines that try it with docker.
            context.output.raw("""
                store \(dir)/authdeck.db
                config \(dir)/config.toml
                key \(dir)/key
                export AUTHDECK_STORE=\(dir)/authdeck.db AUTHDECK_KEY_FILE=\(dir)/key AUTHDECK_CONFIG=\(dir)/config.toml AUTHDECK_DEMO_OAM_SECRET=oam-secret
                users \(Self.demoUsers)
                approve curl -H 'Content-Type: application/json' -d '{"user_code":"CODE","username":"taro@contoso.com"}' \(idp.url)/_admin/device/approve
                \(registry.seedLines)
                remove kill \(idp.pid); rm -r \(dir)
                emulator \(idp.url) pid \(idp.pid)

                """)
            return
        }
        let signingIn = DemoSignIns()
        let approver = Task.detached { await idp.approveDeviceCodes(after: 3, polls: 2, as: signingIn) }
        defer { approver.cancel() }
        let firstRead = FirstRead(store) { try DeckWork.load(store: store, config: config, now: context.clock.now(), selected: nil) }
        let (wiring, environment, themes, ascii, output) = (context.wiring(store), context.environment, ThemeCatalog.load(environment: env).themes,
                                                            !TerminalProbe.localeIsUTF8(), context.output)
        let color = (env["NO_COLOR"] ?? "").isEmpty
        let signal = await MainActor.run {
            let runtime = DeckRuntime(wiring: wiring, config: config, environment: environment, themes: themes, ascii: ascii,
                                      notify: { output.stderr($0) }) { id, prompt in
                guard case .deviceCode(let code, _, _, _, _) = prompt,
                      let username = try? store.accountRows(includeQuarantined: true).first(where: { $0.id == id })?.username else { return }
                signingIn.record(code: code, username: username)
            }
            runtime.state.message = "Demo: device codes are approved automatically after a few seconds. The SharePoint cookie expires soon: watch the deck renew it."
            return runtime.run(screen: CursesScreen(color: color), firstRead: firstRead)
        }
        if let signal { throw CLIError.endedBy(signal: signal) }
    }
}

/// The demo's emulator process and its admin API.
struct DemoEmulator: Sendable {
    let url: String
    /// The https port (`https://127.0.0.1:PORT`), with the registry's certificate.
    let tlsURL: String
    let pid: Int32

    /// Starts `authdeck-idp`, serving https too with the registry's certificate; given a
    /// directory, it ends with this process however that ends, removing the directory (without
    /// one it outlives us: `--seed-only`).
    static func start(followingThisProcessRemoving directory: String?, registry: DemoRegistry) throws -> DemoEmulator {
        let candidates = InstallLayout.helperCandidates("authdeck-idp")
        guard let exe = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError.failure("""
                the demo needs authdeck-idp, its local emulator, and it is not installed (looked for \(candidates.joined(separator: " and "))); \
                in a checkout: swift build --product authdeck-idp (./scripts/run does), or install everything with scripts/install
                """)
        }
        let out = Pipe()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["--tls-cert", registry.certificateFile, "--tls-key", registry.keyFile]
            + (directory.map { ["--exit-with-parent", String(getpid()), "--remove", $0] } ?? [])
        // Its stderr goes to a file in the demo's directory: read when it fails to start, and
        // never a pipe that stops being drained when a --seed-only demo exits.
        let log = registry.directory + "/emulator.log"
        guard FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600]),
              let err = FileHandle(forWritingAtPath: log) else { throw CLIError.failure("\(log): cannot create the emulator's log") }
        defer { try? err.close() }
        p.standardOutput = out
        p.standardError = err
        try p.run()
        var text = ""
        let handle = out.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw CLIError.failure("authdeck-idp did not start" + (said.isEmpty ? "" : ": " + said.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
        func value(_ key: String) -> String? {
            text.range(of: " \(key)=").map { String(text[$0.upperBound...].prefix { !$0.isWhitespace }) }
        }
        guard let url = value("url"), let tls = value("tls") else { throw CLIError.failure("authdeck-idp said: \(text)") }
        return DemoEmulator(url: url, tlsURL: tls, pid: p.processIdentifier)
    }

    func stop() { kill(pid, SIGTERM) }

    func admin(_ path: String, _ json: String? = nil) async throws -> [UInt8] {
        try await EmulatorAdmin(url: url).call(path, json)
    }

    /// Approves every pending device code as a person would: `delay` seconds after it appears
    /// and not before the deck has polled `polls` times; as the account the deck is signing in
    /// again (`signingIn`), else (a new account) as taro@contoso.com.
    func approveDeviceCodes(after delay: Double, polls: Int, as signingIn: DemoSignIns) async {
        var seen: [String: Date] = [:]
        while !Task.isCancelled {
            if let body = try? await admin("devices"), let list = try? JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]] {
                for item in list {
                    guard let code = item["user_code"] as? String else { continue }
                    let first = seen[code] ?? Date()
                    seen[code] = first
                    let polled = ((item["pending_polls"] as? Int) ?? 0) + ((item["slow_downs"] as? Int) ?? 0)
                    if Date().timeIntervalSince(first) >= delay, polled >= polls {
                        let username = signingIn.username(for: code) ?? "taro@contoso.com"
                        _ = try? await admin("device/approve", #"{"user_code":"\#(code)","username":"\#(username)"}"#)
                    }
                }
            }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
    }

    static let contoso = "72f988bf-86f1-41af-91ab-2d7cd011db47"

    static func config(_ url: String) -> String {
        """
        # authdeck demo: every provider points at the local emulator \(url).
        [[provider]]
        id = "work"
        kind = "azuread"
        client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
        flow = "device"
        endpoints = { authority = "\(url)" }
        options = { tenant = "\(contoso)", allow_password = true }

        [[provider]]
        id = "prod"
        kind = "azuread"
        client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
        flow = "device"
        endpoints = { authority = "\(url)" }
        options = { tenant = "\(contoso)", authority_tenant = "organizations", allow_password = true }

        [[provider]]
        id = "sp-intranet"
        kind = "sharepoint"
        options = { site = "contoso.sharepoint.com", site_url = "\(url)", azure_provider = "work" }

        [[provider]]
        id = "fb"
        kind = "facebook"
        client_id = "1234567890"
        scopes = ["public_profile", "email"]
        endpoints = { graph = "\(url)", www = "\(url)" }
        options = { client_token = "fb-client-token" }

        [[provider]]
        id = "whitepages"
        kind = "oam"
        client_id = "oam-client"
        client_secret_env = "AUTHDECK_DEMO_OAM_SECRET"
        flow = "password"
        endpoints = { base = "\(url)" }
        options = { preset = "11g-ms", identity_domain = "DefaultDomain", remember_username_allowed = true, remember_username_default = true }

        [[provider]]
        id = "hr-rest"
        kind = "oam"
        endpoints = { base = "\(url)" }
        options = { server_type = "mobile-social", service_domain = "MobileServiceDomain", application_name = "WhitePages", remember_credentials_allowed = true, remember_credentials_default = true }

        [[provider]]
        id = "oidc"
        kind = "oidc"
        client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
        flow = "device"
        scopes = ["openid", "profile", "offline_access"]
        endpoints = { issuer = "\(url)/\(contoso)/v2.0" }
        options = { allow_password = true }
        """
    }
}
