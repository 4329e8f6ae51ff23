import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `authdeck-idp` binary for one test, on a free loopback port, killed by pid when
/// released; with helpers for its admin API.
public final class EmulatorProcess: @unchecked Sendable {
    let process: LiveProcess
    public let url: String
    public static let publicClient = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    public static let contoso = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    public static let fabrikam = "0d2b2a6e-3c1f-4a43-9b1e-5a6c7d8e9f00"

    public init(arguments: [String] = []) throws {
        let binary = BinaryRunner(product: "authdeck-idp", environment: [:]).executable
        process = try LiveProcess(binary, arguments, environment: ["PATH": "/usr/bin:/bin"])
        url = try process.waitFor("authdeck-idp to listen") { text -> String? in
            guard let r = text.range(of: "ready url=") else { return nil }
            return String(text[r.upperBound...].prefix { !$0.isWhitespace })
        }
    }

    /// What the emulator wrote on stderr (device-code polls, among others).
    public var log: String { process.stderr }

    /// Calls the admin API (`/_admin/<path>`) with a JSON body; returns the answer text.
    @discardableResult
    public func admin(_ path: String, _ json: String? = nil) throws -> String {
        var args = ["-sS", "-f", "\(url)/_admin/\(path)"]
        if let json { args += ["-X", "POST", "-H", "Content-Type: application/json", "-d", json] }
        return try Self.curl(args)
    }

    /// How many requests the emulator answered for `key`: `"POST /path"` in `requests`, or
    /// `"POST /path 400"` in `responses` (counts by status).
    public func count(_ key: String, in section: String = "requests") throws -> Int {
        let json = try JSONSerialization.jsonObject(with: Data(try admin("issued").utf8)) as? [String: Any]
        return (json?[section] as? [String: Int])?[key] ?? 0
    }

    /// Approves a device code as a person would: only after the client has polled `afterPolls`
    /// times and been told to wait (never before its first poll, which hid a client that gave
    /// up on `authorization_pending`). Fails if the client stops polling first.
    public func approve(userCode: String, as user: String, afterPolls: Int = 2, timeout: Double = 60) throws {
        let polled = try waitForPolls(userCode: userCode, atLeast: afterPolls, timeout: timeout)
        guard polled >= afterPolls else {
            throw NSError(domain: "EmulatorProcess", code: 2, userInfo: [NSLocalizedDescriptionKey:
                "the client polled \(polled) times for \(userCode) in \(Int(timeout)) s (wanted \(afterPolls) before approving)"])
        }
        try admin("device/approve", #"{"user_code":"\#(userCode)","username":"\#(user)"}"#)
    }

    /// Waits until the emulator has answered `userCode`'s polls "not yet" at least `count`
    /// times; returns how many it had when it stopped waiting.
    @discardableResult
    public func waitForPolls(userCode: String, atLeast count: Int, timeout: Double = 60) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = 0
        while Date() < deadline {
            seen = try pollsAnswered(userCode: userCode)
            if seen >= count { return seen }
            usleep(100_000)
        }
        return seen
    }

    /// How many polls of a pending code were answered `authorization_pending` or `slow_down`.
    public func pollsAnswered(userCode: String, slowDownsOnly: Bool = false) throws -> Int {
        let list = try JSONSerialization.jsonObject(with: Data(try admin("devices").utf8)) as? [[String: Any]] ?? []
        guard let item = list.first(where: { $0["user_code"] as? String == userCode }) else { return 0 }
        let slow = item["slow_downs"] as? Int ?? 0
        return slowDownsOnly ? slow : (item["pending_polls"] as? Int ?? 0) + slow
    }

    /// A `$BROWSER` script that signs `user` in on the emulator's authorize page and follows
    /// the redirect to the loopback listener, as a person in a browser would.
    public func browserScript(in dir: TempDirectory, user: String, password: String) throws -> String {
        let path = dir.file("emu-browser.sh")
        try """
        #!/bin/sh
        # A person reads the page before signing in: authdeck's listener must wait for them.
        sleep "${AUTHDECK_TEST_BROWSER_PAUSE:-2}"
        q="${1#*\\?}"; base="${1%%\\?*}"
        exec curl -sS -L -o /dev/null -w '%{http_code} %{url_effective}\\n' --data "$q&login=\(user.replacingOccurrences(of: "@", with: "%40"))&passwd=\(password)&consent=yes" "$base" >> '\(dir.file("emu-browser.log"))' 2>&1
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Config for an Azure AD provider "work" on this emulator and a modern SharePoint site
    /// "sp-intranet" that signs in through it: the pair the SharePoint and deck tests share.
    /// `renewBefore` goes to both (`"0s"`: the open deck does not renew ahead by itself).
    public func workAndIntranetTOML(flow: String? = nil, renewBefore: String? = nil) -> String {
        let ahead = renewBefore.map { "renew_before = \"\($0)\"\n" } ?? ""
        return """
        [[provider]]
        id = "work"
        kind = "azuread"
        client_id = "\(Self.publicClient)"
        \(ahead)\(flow.map { "flow = \"\($0)\"\n" } ?? "")endpoints = { authority = "\(url)" }
        options = { tenant = "\(Self.contoso)", allow_password = true }

        [[provider]]
        id = "sp-intranet"
        kind = "sharepoint"
        \(ahead)options = { site = "contoso.sharepoint.com", site_url = "\(url)", azure_provider = "work" }

        """
    }

    /// Config for an OAM provider on this emulator (client secret from `OAM_SECRET`, identity
    /// domain DefaultDomain); `options` continues the options table (", key = value").
    public func oamTOML(_ id: String, preset: String, options: String = "") -> String {
        """
        [[provider]]
        id = "\(id)"
        kind = "oam"
        client_id = "oam-client"
        client_secret_env = "OAM_SECRET"
        scopes = ["UserProfile.me"]
        endpoints = { base = "\(url)" }
        options = { preset = "\(preset)", identity_domain = "DefaultDomain"\(options) }

        """
    }

    public static func curl(_ args: [String]) throws -> String {
        let r = try BinaryRunner(executable: "/usr/bin/curl").run(args)
        guard r.status == 0 else {
            throw NSError(domain: "EmulatorProcess", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "curl \(args): \(r.stderr)"])
        }
        return r.stdout
    }
}
