import Testing
import AuthDeckCore

/// What git's and kubectl's helpers print, as both binaries write it: git's lines only without
/// a line break in them, kubectl's JSON only when no character needs escaping.
@Suite struct HelperAnswerTests {
    @Test func gitAndKubectlAnswersAreWrittenOnlyWhenPlain() {
        let at = Instant(secondsSinceEpoch: 1_800_000_000)
        #expect(GitCredentialRequest.answer(username: "u", token: "t", expiresAt: at) == "username=u\npassword=t\npassword_expiry_utc=1800000000\n")
        #expect(GitCredentialRequest.answer(username: "u\rx", token: "t", expiresAt: nil) == nil)
        #expect(GitCredentialRequest.answer(username: "u", token: "t\0", expiresAt: nil) == nil)
        let v1 = "client.authentication.k8s.io/v1"
        #expect(ExecCredentialText.plain(apiVersion: v1, token: "a.b-c_d", expiresAt: at)
                == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"expirationTimestamp":"2027-01-15T08:00:00Z","token":"a.b-c_d"}}"# + "\n")
        #expect(ExecCredentialText.plain(apiVersion: v1, token: "t", expiresAt: nil)?.contains(#""status":{"token":"t"}"#) == true)
        for token in ["a\"b", "a\\b", "a\nb", "é", ""] {
            #expect(ExecCredentialText.plain(apiVersion: v1, token: token, expiresAt: at) == nil, "\(token)")
        }
        #expect(ExecCredentialText.plain(apiVersion: "v2", token: "t", expiresAt: at) == nil)
        let request = GitCredentialRequest.read(from: Array("protocol=https\nhost=h\npath=a/b\n\nurl=https://x\n".utf8))
        #expect(request.url == "https://h/a/b")
    }
}
