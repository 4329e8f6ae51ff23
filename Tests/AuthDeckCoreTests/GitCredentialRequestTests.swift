import Testing
import AuthDeckCore

/// git's requests read by git's own rules, and the URLs no route answers (issue 38): a later
/// attribute wins over `url=`, `url=` wins over those before it, and a path with a dot segment
/// — plain, percent-encoded or encoded twice — climbs out of every route.
@Suite struct GitCredentialRequestTests {
    static func url(_ text: String) -> String? { GitCredentialRequest.read(from: Array(text.utf8)).url }

    @Test func laterAttributesWinAsInGit() {
        // As `git credential fill` (2.39) hands these to a helper.
        #expect(Self.url("url=https://dev.azure.com/contoso/x\nhost=evil.example\n\n") == "https://evil.example/contoso/x")
        #expect(Self.url("host=evil.example\nurl=https://dev.azure.com/contoso/x\n\n") == "https://dev.azure.com/contoso/x")
        #expect(Self.url("protocol=https\nhost=h\npath=p\nurl=https://dev.azure.com\n\n") == "https://dev.azure.com", "url= clears the path before it")
        #expect(Self.url("url=https://u:pw@dev.azure.com:8443//contoso/a//\npath=zz\n\n") == "https://dev.azure.com:8443/zz")
        #expect(Self.url("url=https://dev.azure.com//contoso/a%20b//\n\n") == "https://dev.azure.com/contoso/a b", "decoded, slashes trimmed")
        #expect(Self.url("protocol=https\r\nhost=dev.azure.com\r\npath=contoso\r\n\r\nhost=evil\n") == "https://dev.azure.com/contoso", "CR LF lines")
        let request = GitCredentialRequest.read(from: Array("url=https://u%40x:p@h/a\n\n".utf8))
        #expect(request.fields == ["protocol": "https", "host": "h", "path": "a", "username": "u@x", "password": "p"])
    }

    @Test func unreadableURLsAndHostsAnswerNothing() {
        #expect(Self.url("url=dev.azure.com/contoso\n\n") == nil, "no scheme: git dies")
        #expect(Self.url("url=://dev.azure.com/contoso\n\n") == nil)
        #expect(Self.url("url=https://h/a%0apassword=x\n\n") == nil, "a decoded line break: git dies")
        #expect(Self.url("url=https://dev.azure.com%2fcontoso/x\n\n") == nil, "a slash in the decoded host")
        #expect(Self.url("protocol=https\nhost=dev.azure.com/contoso\npath=x\n\n") == nil)
        #expect(Self.url("protocol=https\nhost=dev.azure.com\\contoso\n\n") == nil)
        #expect(Self.url("protocol=https\nhost=dev.azure.com contoso\n\n") == nil)
        #expect(Self.url("protocol=\nhost=dev.azure.com\n\n") == nil)
    }

    @Test func aPathWithADotSegmentIsCoveredByNoRoute() {
        let routes = [CredentialRoute(url: "https://dev.azure.com/contoso", account: "work"), CredentialRoute(url: "https://dev.azure.com", account: "any")]
        for path in ["contoso/%2e%2e/evil/_git/app", "contoso/%2E%2E/evil", "contoso/../evil", "contoso/./app", "contoso/.%2e/evil",
                     "contoso/%252e%252e/evil", "contoso/..%2fevil", "contoso/..%5cevil", "contoso\\..\\evil", "contoso/..;/evil",
                     "contoso/..?x", "contoso/%25252e%25252e/evil", "contoso/.."] {
            #expect(CredentialRoute.climbs("https://dev.azure.com/" + path), "\(path)")
            #expect(CredentialRoute.route(for: "https://dev.azure.com/" + path, in: routes) == nil, "\(path)")
        }
        // The same through git's request: decoded from `url=` (as git does), or as git sends `path=`.
        let viaURL = Self.url("url=https://dev.azure.com/contoso/%2e%2e/evil/_git/app\n\n")
        #expect(viaURL == "https://dev.azure.com/contoso/../evil/_git/app")
        #expect(CredentialRoute.route(for: viaURL!, in: routes) == nil)
        // What is no dot segment still matches.
        for path in ["contoso/a.b/app", "contoso/...", "contoso/.git", "contoso/x..", "contoso/app?ref=.x", "contoso/%2e%2e%2e"] {
            #expect(!CredentialRoute.climbs("https://dev.azure.com/" + path), "\(path)")
            #expect(CredentialRoute.route(for: "https://dev.azure.com/" + path, in: routes)?.account == "work", "\(path)")
        }
        #expect(!CredentialRoute.climbs("https://dev.azure.com"))
        #expect(PercentEncoding.decoded("a%2E%2e%zz%4") == "a..%zz%4")
    }
}
