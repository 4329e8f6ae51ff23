/// The Netscape cookie-jar format that curl (`-b`/`-c`) and many tools read and write.
///
/// Lines: `domain  includeSubdomains  path  secure  expiry  name  value`, tab-separated;
/// `#HttpOnly_` prefixes the domain of HttpOnly cookies; expiry 0 means a session cookie.
public enum NetscapeCookieJar {
    public static let header = "# Netscape HTTP Cookie File\n# Written by authdeck. Holds live credentials: keep it private.\n\n"

    /// Renders cookies as a jar curl accepts as is; refuses a cookie `CookieSyntax` refuses,
    /// so no cookie can add a line or a field.
    public static func render(_ cookies: [Cookie]) throws(Unwritable) -> String {
        header + (try lines(cookies)).map { $0 + "\n" }.joined()
    }

    /// One jar line per cookie and no header: what libcurl's `CURLOPT_COOKIELIST` takes.
    public static func lines(_ cookies: [Cookie]) throws(Unwritable) -> [String] {
        try check(cookies)
        return cookies.map { c in
            let domain = (c.httpOnly ? "#HttpOnly_" : "") + c.domain
            let sub = c.domain.hasPrefix(".") ? "TRUE" : "FALSE"
            let expiry = c.expiresAt.map { String($0.secondsSinceEpoch) } ?? "0"
            return [domain, sub, c.path, c.secure ? "TRUE" : "FALSE", expiry, c.name, c.value.exposedValue].joined(separator: "\t")
        }
    }

    /// A `Cookie:` request header value for the cookies (name=value pairs); refuses as `lines`.
    public static func headerValue(_ cookies: [Cookie]) throws(Unwritable) -> String {
        try check(cookies)
        return cookies.map { "\($0.name)=\($0.value.exposedValue)" }.joined(separator: "; ")
    }

    /// A cookie that cannot be written without breaking the jar or header (which, why).
    public struct Unwritable: Error, Equatable, CustomStringConvertible {
        public var problem: String
        public var description: String { "\(problem); nothing was written" }
    }

    static func check(_ cookies: [Cookie]) throws(Unwritable) {
        for cookie in cookies {
            if let problem = CookieSyntax.problem(cookie) { throw Unwritable(problem: problem) }
        }
    }

    /// A problem in a jar, with its line number.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var problem: String
        public var description: String { "line \(line): \(problem)" }

        public init(line: Int, problem: String) {
            self.line = line
            self.problem = problem
        }
    }

    /// What `parse` does with a line whose cookie `CookieSyntax` refuses.
    public enum Unfit: Sendable {
        /// Fails with the line's number: a file a person hands authdeck.
        case refuse
        /// Leaves the cookie out: a site's jar, whose other cookies are still good.
        case skip
    }

    /// Parses a jar; `makeID` supplies row ids. Comment and blank lines are skipped; a cookie
    /// `CookieSyntax` refuses is refused with its line number or skipped, as `unfit` says.
    public static func parse(_ text: String, unfit: Unfit = .refuse, makeID: () -> String) throws -> [Cookie] {
        var cookies: [Cookie] = []
        // Lines end at LF alone, counted on scalars: as Characters, CR LF is one that is not
        // "\n", and a jar with CRLF line ends would read as one long line.
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(String(String.UnicodeScalarView(raw)))
            if line.hasSuffix("\r") { line = line.dropLast() }
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7 else {
                throw ParseError(line: index + 1, problem: "expected 7 tab-separated fields, found \(fields.count)")
            }
            guard let expiry = Int64(fields[4]), expiry >= 0 else {
                throw ParseError(line: index + 1, problem: "expiry \"\(fields[4])\" is not a number of seconds")
            }
            guard !fields[0].isEmpty, !fields[5].isEmpty else {
                throw ParseError(line: index + 1, problem: "domain and name must not be empty")
            }
            let path = fields[2].isEmpty ? "/" : String(fields[2])
            if let problem = CookieSyntax.problem(name: String(fields[5]), value: String(fields[6]), domain: String(fields[0]), path: path) {
                if unfit == .skip { continue }
                throw ParseError(line: index + 1, problem: problem)
            }
            cookies.append(Cookie(id: makeID(), name: String(fields[5]), value: Secret(String(fields[6])),
                                  domain: String(fields[0]), path: path,
                                  expiresAt: expiry == 0 ? nil : Instant(secondsSinceEpoch: expiry),
                                  secure: fields[3].uppercased() == "TRUE", httpOnly: httpOnly))
        }
        return cookies
    }
}
