import Foundation
import TOMLKit
import AuthDeckCore

/// Reads and validates the agent's tables: `[[agent]]` entries (`host`, `accounts`, `scopes`,
/// `expires`) and `[agent_confirm]` (`command`).
///
/// Why `[agent_confirm]` and not `[agent] confirm_command`: TOML cannot hold both a table
/// `[agent]` and an array of tables `[[agent]]` under one name, and the entries keep the name
/// the issue and docs give them.
enum AgentReader {
    static let keys = ["host", "accounts", "scopes", "expires"]

    static func read(_ root: TOMLTable, path: String, into config: inout DeckConfig) throws {
        if let list = root["agent"] {
            guard let array = list.array else {
                throw ConfigError(path: path, location: nil, problem: "\"agent\" must be an array of tables: write each allow-list entry as [[agent]] "
                                  + "(the confirmation command goes in [agent_confirm] command = \"…\")")
            }
            for (index, element) in array.enumerated() {
                guard let table = element.table else {
                    throw ConfigError(path: path, location: "agent #\(index + 1)", problem: "must be a table ([[agent]])")
                }
                config.agentAllows.append(try entry(table, index: index, path: path))
            }
        }
        if let confirm = root["agent_confirm"] {
            guard let table = confirm.table else {
                throw ConfigError(path: path, location: nil, problem: "\"agent_confirm\" must be a table ([agent_confirm] with command = \"…\")")
            }
            let r = TableReader(table: table, path: path, location: "[agent_confirm]")
            try r.rejectUnknown(["command"])
            let command = try r.requiredString("command")
            guard CommandWords.split(command) != nil else {
                throw r.fail("\"command\" has an unclosed quote (found \"\(command)\"); it is split as words, as a shell would, without running a shell")
            }
            config.agentConfirmCommand = command
        }
    }

    static func entry(_ table: TOMLTable, index: Int, path: String) throws -> AgentAllow {
        let r = TableReader(table: table, path: path, location: "agent #\(index + 1)")
        try r.rejectUnknown(keys, hint: ["account": "write \"accounts\", a list: accounts = [\"work\"]",
                                         "hosts": "write \"host\", one glob pattern an entry (\"build-*\")"])
        let host = try r.requiredString("host")
        guard !host.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false }) else {
            throw r.fail("\"host\" must be one host name or glob pattern without spaces (found \"\(host)\")")
        }
        guard let accounts = try r.stringArray("accounts") else { throw r.fail("\"accounts\" is required: the accounts this entry allows") }
        guard !accounts.isEmpty else { throw r.fail("\"accounts\" must name at least one account or provider") }
        if let bad = accounts.first(where: { $0.trimmingWhitespace().isEmpty }) {
            throw r.fail("\"accounts\" items must name an account or provider (found \"\(bad)\")")
        }
        let scopes = try r.stringArray("scopes")
        if let bad = scopes?.first(where: { $0.isEmpty || $0.contains(" ") }) {
            throw r.fail("\"scopes\" items must be single scopes without spaces (found \"\(bad)\")")
        }
        return AgentAllow(host: host, accounts: accounts, scopes: scopes, expires: try expires(r, table), index: index + 1)
    }

    /// `expires`: an RFC 3339 date-time with an offset, as a TOML date-time or a string.
    static func expires(_ r: TableReader, _ table: TOMLTable) throws -> Instant? {
        guard let v = table["expires"] else { return nil }
        let text: String
        if let s = v.string {
            text = s
        } else if let dt = v.dateTime {
            guard dt.offset != nil else {
                throw r.fail("\"expires\" must carry a time zone (2026-12-31T18:00:00Z or …+01:00), found \(v.debugDescription)")
            }
            text = dt.debugDescription
        } else {
            throw r.fail("\"expires\" must be an RFC 3339 date-time such as 2026-12-31T18:00:00Z (found \(TableReader.describe(v)))")
        }
        guard let instant = rfc3339(text) else {
            throw r.fail("\"expires\" must be an RFC 3339 date-time with a time zone, such as 2026-12-31T18:00:00Z (found \"\(text)\")")
        }
        return instant
    }

    static func rfc3339(_ text: String) -> Instant? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            formatter.formatOptions = options
            // TOMLKit writes a date-time with a space or a `T`; RFC 3339 allows both.
            if let date = formatter.date(from: text.replacingOccurrences(of: " ", with: "T")) {
                return Instant(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
            }
        }
        return nil
    }
}
