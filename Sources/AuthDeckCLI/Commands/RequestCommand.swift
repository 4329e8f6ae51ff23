import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck request ACCOUNT URL`: one HTTP request with the account's credential, renewed
/// and retried once when the server asks for a new one.
///
/// Why not `curl -H "Authorization: Bearer $(authdeck token …)"`: that puts the token in
/// curl's argv (visible in `ps`), cannot renew when the server rejects a token that looked
/// valid, and follows redirects with the header attached. The body streams to stdout or
/// `-o FILE` (replaced only when the request succeeds); with `--include` the status and headers go to stderr (Set-Cookie values hidden).
/// Exit status: 0 for a 2xx/3xx answer, 1 for another 4xx, 4 for 429/5xx or a network
/// failure, 3 when only an interactive sign-in can help.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request", abstract: "Send an HTTP request with ACCOUNT's token, cookies or client certificate.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.accounts) var account: String
    @Argument(help: "The http(s) URL to request.") var url: String
    @Option(name: [.customShort("X"), .customLong("request")], help: ArgumentHelp("The method (default GET, or POST with a body).", valueName: "method"))
    var method: String?
    @Option(name: [.customShort("H"), .customLong("header")], parsing: .singleValue, help: ArgumentHelp("A header 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []
    @Option(name: [.customShort("d"), .customLong("data")], help: ArgumentHelp("The request body.", valueName: "data")) var data: String?
    @Option(name: .customLong("data-file"), help: ArgumentHelp("Read the body from a file (- for stdin).", valueName: "path"))
    var dataFile: String?
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body to this file instead of stdout (replaced only on success; a new file gets mode 0600).", valueName: "path"))
    var output: String?
    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers to stderr.") var include = false
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable).", valueName: "scope"))
    var scope: [String] = []
    @Option(name: .long, help: ArgumentHelp("Seconds the whole exchange may take.", valueName: "seconds")) var timeout: Double = 300
    @Flag(name: .long, help: "Print JSON: the status, headers (Set-Cookie values hidden) and body as text (base64 when not UTF-8; with -o, the file instead).")
    var json = false

    /// The `--json` answer. `body` is the body as UTF-8 text; one that is not UTF-8 comes as
    /// `body_base64`; with `-o` neither, and `body_file` names where it went.
    struct AnswerJSON: Encodable {
        struct Header: Encodable {
            var name: String
            var value: String
        }
        var status: Int
        var url: String
        var headers: [Header]
        var body: String?
        var body_base64: String?
        var body_file: String?
        /// The server asked for new credentials: the account was renewed and the request sent again.
        var renewed: Bool
    }

    func validate() throws {
        if data != nil && dataFile != nil { throw ValidationError("give the body with -d or --data-file, not both") }
        if timeout <= 0 { throw ValidationError("--timeout must be a positive number of seconds") }
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("-X must be an HTTP method such as GET or PUT (found \"\(method)\")")
        }
        _ = try parsedHeaders()
    }

    /// The `-H` values as headers; authdeck adds the credential itself, so those are refused.
    func parsedHeaders() throws -> [(name: String, value: String)] {
        try headers.map { text in
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw ValidationError("-H needs 'Name: value' (found \"\(TerminalText.inert(text))\")")
            }
            if text.contains("\r") || text.contains("\n") { throw ValidationError("-H \"\(text[..<colon])\": a header value cannot hold a line break") }
            let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
            if ["authorization", "cookie"].contains(name.lowercased()) {
                throw ValidationError("-H \(name): authdeck adds the account's credential itself; leave this header out")
            }
            return (name, String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    /// The body goes to `-o FILE` or, without one, to stdout as the process's own (`OutputFile`).
    func run(in context: DeckContext) async throws {
        let (config, store, stored) = try context.openAccount(account, ask: true)
        let body = try readBody(context.input)
        var extra = try parsedHeaders()
        if body != nil, !extra.contains(where: { $0.name.lowercased() == "content-type" }) {
            extra.append(("Content-Type", "application/x-www-form-urlencoded"))
        }
        guard let u = URL(string: url), ["http", "https"].contains(u.scheme?.lowercased() ?? ""), u.host != nil else {
            throw CLIError.usage("not an http(s) URL: \(url)")
        }
        if let error = stored.account.lastError, error.errorClass == .needsInteraction,
           !stored.credentials.hasUsableCredential(at: context.clock.now(), skew: .seconds(0)) {
            throw CLIError.needsSignIn(Remedy.forMissingToken(stored, scopes: scope, now: context.clock.now(), skew: config.statePolicy.clockSkew))
        }
        guard config.provider(stored.account.providerId) != nil else { throw CLIError.unknownProvider(stored.account.providerId, in: config) }
        let requester = try AuthorizedRequest(for: stored, wiring: context.wiring(store), config: config, scopes: scope)
        let sink = try OutputFile(path: output)
        // With --json and no -o the body belongs inside the JSON answer, not before it.
        let collector = json && output == nil ? BodyCollector() : nil
        let response: AuthorizedRequest.Answer
        do {
            response = try await requester.send(method: method?.uppercased() ?? (body == nil ? "GET" : "POST"), url: url, headers: extra,
                                                body: body, timeout: timeout, accountId: stored.account.id, output: collector?.write ?? sink.write)
        } catch let failure as AuthFailure {
            sink.abandon()
            var named = failure.naming(stored.account.id)
            if failure.errorClass == .needsInteraction, !named.remedy.contains("authdeck login") {
                named.remedy += " (`authdeck login \(stored.account.providerId)`)"
            }
            throw named
        } catch {
            sink.abandon()
            throw error
        }
        // An error answer's body is not the file the caller asked for: the old content stays.
        let succeeded = (200..<400).contains(response.status)
        if succeeded { try sink.finish() } else { sink.abandon() }
        let kept = succeeded || output == nil ? "" : "; " + sink.untouched
        try? store.touch(accountId: stored.account.id, at: context.clock.now())
        if include {
            if response.renewed { context.output.note("* the server asked for new credentials: \(stored.account.id) was renewed and the request sent again") }
            if response.hops.count > 1 { context.output.note("* followed \(response.hops.count - 1) redirect(s) to \(response.hops.last!)") }
            if response.leftOrigin { context.output.note("* a redirect left \(URL(string: url)?.host ?? url): the credential was not sent there") }
            context.output.note("HTTP \(response.status)")
            for h in response.headers {
                let value = h.name.lowercased() == "set-cookie" ? Self.hideCookieValue(h.value) : h.value
                context.output.note("\(h.name): \(TerminalText.inert(value))")
            }
        }
        if json {
            let bytes = collector?.collected ?? []
            let text = collector == nil ? nil : String(validating: bytes, as: UTF8.self)
            try context.output.json(AnswerJSON(status: response.status, url: response.hops.last ?? url,
                                       headers: response.headers.map { h in
                                           .init(name: h.name, value: h.name.lowercased() == "set-cookie" ? Self.hideCookieValue(h.value) : h.value)
                                       },
                                       body: text, body_base64: collector != nil && text == nil ? Data(bytes).base64EncodedString() : nil,
                                       body_file: succeeded ? output : nil, renewed: response.renewed))
        }
        switch response.status {
        case 200..<400: return
        case 429, 500...:
            context.output.error("\(url) answered HTTP \(response.status)\(kept)")
            throw ExitCode(ExitStatus.transient)
        default:
            context.output.error("\(url) answered HTTP \(response.status)\(kept)")
            throw ExitCode(ExitStatus.failure)
        }
    }

    /// The body `--data` or `--data-file` gives (`-`: the command's input), or nil.
    func readBody(_ input: any CommandInput) throws -> [UInt8]? {
        if let data { return Array(data.utf8) }
        guard let dataFile else { return nil }
        if dataFile == "-" { return Array(input.readToEnd()) }
        guard let bytes = FileManager.default.contents(atPath: dataFile) else {
            throw CLIError.usage("--data-file \(dataFile) cannot be read")
        }
        return Array(bytes)
    }

    /// `Set-Cookie: name=value; …` with the value hidden: cookies are credentials.
    static func hideCookieValue(_ header: String) -> String {
        guard let eq = header.firstIndex(of: "=") else { return header }
        let rest = header[eq...].firstIndex(of: ";").map { String(header[$0...]) } ?? ""
        return header[..<eq] + "=<hidden>" + rest
    }
}
