import Testing
import AuthDeckCore

/// Issue 26: server-supplied addresses are shown only as http(s) without controls or spaces,
/// and opened only as https or http on loopback; device codes only printable.
@Suite struct WebLinkTests {
    @Test(arguments: ["file:///etc/passwd", "javascript:alert(1)//", "ssh://evil.example/x", "--new-window=file:///x", "-h",
                      "https://", "https:///path", "https://idp.test/\u{1b}]0;t\u{07}", "https://idp.test/a b", "https://idp.test/\u{202e}x",
                      "http://evil.example/authorize", "http://127.0.0.1.evil.example/", "http://localhost@evil.example/"])
    func theseAreNeverOpened(url: String) {
        #expect(WebLink.problemOpening(url, field: "authorization_endpoint")?.hasPrefix("authorization_endpoint ") == true, "\(url)")
    }

    @Test(arguments: ["https://login.example/authorize?x=1", "HTTPS://idp.test/a", "http://127.0.0.1:8080/cb", "http://localhost/a",
                      "http://[::1]:99/", "http://127.0.0.1"])
    func theseAreOpened(url: String) {
        #expect(WebLink.problemOpening(url, field: "f") == nil, "\(url)")
    }

    @Test func plainHTTPToAnyHostMayBeShownButNotOpened() {
        #expect(WebLink.problemShowing("http://device.example/activate", field: "verification_uri") == nil)
        #expect(WebLink.problemOpening("http://device.example/activate", field: "verification_uri") != nil)
        let refused = WebLink.problemShowing("javascript:alert(1)", field: "verification_uri_complete")
        #expect(refused == "verification_uri_complete is not an http(s) address (\"javascript:alert(1)\")")
        #expect(WebLink.problemShowing("https://x/\u{1b}[2J", field: "v") == "v holds spaces, control or non-ASCII characters (\"https://x/␛[2J\")")
    }

    @Test func aDeviceCodePromptIsRefusedWhenAFieldIsUnfitToShow() throws {
        let at = Instant(secondsSinceEpoch: 0)
        func prompt(_ code: String, _ uri: String = "https://idp.test/device", _ complete: String? = nil) throws(AuthFailure) -> SignInPrompt {
            try SignInPrompt.checkedDeviceCode(userCode: code, verificationURI: uri, verificationURIComplete: complete, message: nil,
                                               expiresAt: at, host: "idp.test")
        }
        #expect(try prompt("WDJB-MJHT") == .deviceCode(userCode: "WDJB-MJHT", verificationURI: "https://idp.test/device",
                                                      verificationURIComplete: nil, message: nil, expiresAt: at))
        _ = try prompt("BCDF GHJK ÄÖ")
        for (code, uri, complete, field) in [("\u{1b}]0;t\u{07}AB", "https://idp.test/d", nil, "user_code"),
                                             ("AB\u{202e}CD", "https://idp.test/d", nil, "user_code"),
                                             ("AB\nCD", "https://idp.test/d", nil, "user_code"), ("", "https://idp.test/d", nil, "user_code"),
                                             (String(repeating: "A", count: 65), "https://idp.test/d", nil, "user_code"),
                                             ("AB", "javascript:x", nil, "verification_uri"),
                                             ("AB", "https://idp.test/d", "javascript:alert(1)", "verification_uri_complete")] as [(String, String, String?, String)] {
            do {
                _ = try prompt(code, uri, complete)
                Issue.record("accepted \(code.debugDescription) \(uri) \(complete ?? "")")
            } catch {
                // Typed throws: the error is an AuthFailure.
                #expect(error.errorClass == .misconfigured && error.remedy.contains(": \(field) "), "\(error.remedy)")
                #expect(!error.remedy.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x0A })
            }
        }
    }

    @Test func aWholeMessageKeepsItsLineBreaksAndLosesEverythingElse() {
        #expect(TerminalText.inertMessage("a\n\tb") == "a\n\tb")
        #expect(TerminalText.inertMessage("x\u{1b}]0;t\u{07}\r\u{9b}\u{202e}y\n") == "x␛]0;t␇␍\u{FFFD}\u{FFFD}y\n")
        #expect(TerminalText.inert("a\nb") == "a␊b")
    }
}
