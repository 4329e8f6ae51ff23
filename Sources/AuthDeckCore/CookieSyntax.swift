/// What a cookie must be for authdeck to write it as one jar line or one `Cookie:` pair.
///
/// Jar lines are tab-separated and a line feed ends one: a TAB, CR or LF in a name, value,
/// domain or path imported from a hostile `cookies.sqlite` or jar wrote extra jar lines (curl
/// then sent a cookie to another host) and CRLF into `cookies --format header`. The rule is
/// RFC 6265's (§4.1.1): a name is a token, a value is cookie-octets (optionally quoted), a
/// domain is host characters, a path has no controls, spaces or `;`. It is checked where
/// cookies come in (import, naming the file and line or row) and again where they go out.
public enum CookieSyntax {
    /// Why `cookie` cannot be written (nil: it can). Never quotes the value, a secret.
    public static func problem(_ cookie: Cookie) -> String? {
        problem(name: cookie.name, value: cookie.value.exposedValue, domain: cookie.domain, path: cookie.path)
    }

    /// Why a cookie of these fields cannot be written (nil: it can).
    public static func problem(name: String, value: String, domain: String, path: String) -> String? {
        if name.isEmpty || !name.unicodeScalars.allSatisfy(isTokenCharacter) {
            return "the cookie name \(excerpt(name)) is not an RFC 6265 token (control characters, spaces, tabs or separators)"
        }
        if !isCookieValue(value) {
            return "the value of cookie \(excerpt(name)) holds characters a cookie value may not (control characters, spaces, tabs, quotes, commas, semicolons or backslashes)"
        }
        if domain.isEmpty || domain.hasPrefix("#") || !domain.unicodeScalars.allSatisfy(isDomainCharacter) {
            return "the domain of cookie \(excerpt(name)) is not a host name (\(excerpt(domain)))"
        }
        if !path.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != ";" }) {
            return "the path of cookie \(excerpt(name)) holds control characters, spaces, tabs or semicolons (\(excerpt(path)))"
        }
        return nil
    }

    /// RFC 2616 token: visible ASCII less the separators `()<>@,;:\"/[]?={}`.
    static func isTokenCharacter(_ s: Unicode.Scalar) -> Bool {
        (0x21...0x7E).contains(s.value) && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(s)
    }

    /// RFC 6265 cookie-value: `*cookie-octet / ( DQUOTE *cookie-octet DQUOTE )`.
    static func isCookieValue(_ value: String) -> Bool {
        var scalars = Substring(value).unicodeScalars
        if scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" { scalars = scalars.dropFirst().dropLast() }
        return scalars.allSatisfy { s in
            switch s.value {
            case 0x21, 0x23...0x2B, 0x2D...0x3A, 0x3C...0x5B, 0x5D...0x7E: true
            default: false
            }
        }
    }

    /// Letters, digits, `.`, `-`, `_`, and `:[]` for IPv6 literals.
    static func isDomainCharacter(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_", ":", "[", "]": true
        default: false
        }
    }

    /// A name, domain or path as a message may show it: inert, at most 40 characters, quoted.
    static func excerpt(_ text: String) -> String {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + TerminalText.inert(cut) + "\""
    }
}
