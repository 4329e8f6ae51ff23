import AuthDeckCore

/// Extra browser arguments for authdeck's own tests, from `AUTHDECK_TEST_BROWSER_ARGS` (one
/// argument a line) — in a debug build only.
///
/// Why it exists: the tests run Debian's Chromium headless as root, against the emulator
/// served as `contoso.sharepoint.com` with a test certificate, and type into the page through
/// a DevTools port of their own. Why it cannot be reached by accident: a release build does
/// not contain it (`#if DEBUG`), and even a debug build takes only the switches listed here —
/// `--ignore-certificate-errors-spki-list` trusts the one test key it names, and nothing that
/// turns certificate checks off is on the list.
enum BrowserTestArguments {
    /// The switches a test may add (a prefix each; the value follows `=`).
    static let allowed = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--remote-debugging-port=0",
                          "--host-resolver-rules=", "--ignore-certificate-errors-spki-list=", "--window-size="]

    /// The test's arguments, checked; none in a release build.
    static func from(_ environment: [String: String]) throws -> [String] {
        #if DEBUG
        guard let text = environment["AUTHDECK_TEST_BROWSER_ARGS"], !text.isEmpty else { return [] }
        let arguments = text.split(separator: "\n").map(String.init)
        if let bad = arguments.first(where: { argument in !allowed.contains { argument == $0 || ($0.hasSuffix("=") && argument.hasPrefix($0)) } }) {
            throw Refusal.usage("AUTHDECK_TEST_BROWSER_ARGS (a test-only variable) holds \"\(TerminalText.inert(bad))\", which is not one of \(allowed.joined(separator: " "))")
        }
        return arguments
        #else
        return []
        #endif
    }
}
