/// Decides which addresses from outside (a discovery document, a device-code answer) authdeck
/// shows to a person and which it hands to a browser.
///
/// A provider's address is attacker-controlled: printed raw, a `javascript:` or `file:` link
/// invites a click, and a space or control character fakes the rest of the line; handed to
/// `$BROWSER` or xdg-open, `file:`, `ssh:` or an argument starting with `--` does what the
/// browser's argv allows. Shown: http or https only, printable ASCII without spaces. Opened:
/// also https, or http on a loopback host — such a URL begins with a letter, so it is never
/// taken as an option (passing it after `--` is not portable to every xdg-open).
public enum WebLink {
    /// The loopback hosts a plain-http URL may name to be opened.
    static let loopbackPrefixes = ["http://127.0.0.1", "http://localhost", "http://[::1]"]

    /// Why `text` may not be shown as a link (nil: it may): `field` names where it came from.
    public static func problemShowing(_ text: String, field: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), hostStart(lower) != nil else {
            return "\(field) is not an http(s) address (\(excerpt(text)))"
        }
        guard text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return "\(field) holds spaces, control or non-ASCII characters (\(excerpt(text)))"
        }
        return nil
    }

    /// Why `text` may not be opened in a browser (nil: it may): https, or http on loopback.
    public static func problemOpening(_ text: String, field: String) -> String? {
        if let problem = problemShowing(text, field: field) { return problem }
        let lower = text.lowercased()
        if lower.hasPrefix("https://") { return nil }
        for prefix in loopbackPrefixes where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            if rest.isEmpty || ":/?#".contains(rest.first!) { return nil }
        }
        return "\(field) is plain http to a host that is not this machine (\(excerpt(text))); only https, or http to 127.0.0.1, localhost or [::1], is opened"
    }

    /// Where the host begins after `scheme://`, when there is a host.
    static func hostStart(_ lower: String) -> String.Index? {
        guard let range = lower.firstRange(of: "://") else { return nil }
        guard let first = lower[range.upperBound...].first, !"/?#".contains(first) else { return nil }
        return range.upperBound
    }

    /// The refused address as a person may see it: inert, at most 80 characters.
    static func excerpt(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return "\"" + TerminalText.inert(cut) + "\""
    }
}
