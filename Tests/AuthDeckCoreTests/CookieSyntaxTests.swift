import Testing
import AuthDeckCore

/// Issue 26: a cookie whose name, value, domain or path holds TAB, CR, LF or other
/// characters RFC 6265 does not allow is refused where it comes in and where it goes out.
@Suite struct CookieSyntaxTests {
    func cookie(name: String = "FedAuth", value: String = "77u/PD94+=", domain: String = "contoso.sharepoint.com",
                path: String = "/") -> Cookie {
        Cookie(id: "1", name: name, value: Secret(value), domain: domain, path: path)
    }

    @Test func goodCookiesPass() {
        #expect(CookieSyntax.problem(cookie()) == nil)
        #expect(CookieSyntax.problem(cookie(value: "\"quoted\"", domain: ".sharepoint.com", path: "/sites/a")) == nil)
        #expect(CookieSyntax.problem(cookie(value: "")) == nil)
    }

    @Test(arguments: [("Fed\tAuth", "v", "d.example", "/", "name"), ("Fed Auth", "v", "d.example", "/", "name"),
                      ("a=b", "v", "d.example", "/", "name"), ("", "v", "d.example", "/", "name"),
                      ("n", "v\r\n.evil.example\tTRUE", "d.example", "/", "value"), ("n", "a b", "d.example", "/", "value"),
                      ("n", "a;b", "d.example", "/", "value"), ("n", "v", "d.example\n.evil", "/", "domain"),
                      ("n", "v", "#HttpOnly_evil.example", "/", "domain"), ("n", "v", "d example", "/", "domain"),
                      ("n", "v", "d.example", "/a\tb", "path"), ("n", "v", "d.example", "/a b", "path")])
    func badFieldsAreNamedAndTheValueNeverShown(name: String, value: String, domain: String, path: String, field: String) throws {
        let problem = try #require(CookieSyntax.problem(cookie(name: name, value: value, domain: domain, path: path)))
        #expect(problem.contains(field == "name" ? "cookie name" : "\(field) of cookie"), "\(problem)")
        #expect(value == "v" || !problem.contains(value), "the value is a secret: \(problem)")
        #expect(!problem.unicodeScalars.contains { $0.value < 0x20 }, "\(problem.debugDescription)")
    }

    @Test func aJarLineThatWouldInjectIsRefusedWithItsLineNumber() {
        let good = "contoso.sharepoint.com\tFALSE\t/\tTRUE\t0\tFedAuth\tv1\n"
        #expect(throws: NetscapeCookieJar.ParseError.self) { try NetscapeCookieJar.parse(good + "h.example\tFALSE\t/\tTRUE\t0\tn\tv\rX\n") { "x" } }
        do {
            _ = try NetscapeCookieJar.parse(good + "h.example\tFALSE\t/\tTRUE\t0\tn a\tv\n") { "x" }
            Issue.record("accepted a name with a space")
        } catch let error as NetscapeCookieJar.ParseError {
            #expect(error.line == 2 && error.problem.contains("cookie name"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        // A site's jar (libcurl's): the unfit cookie is left out, the others kept.
        #expect((try? NetscapeCookieJar.parse(good + "h.example\tFALSE\t/\tTRUE\t0\tn\tv\rX\n", unfit: .skip) { "x" })?.map(\.name) == ["FedAuth"])
    }

    @Test func aJarWithCRLFLineEndsIsReadLineByLine() throws {
        let text = "# Netscape HTTP Cookie File\r\na.example\tFALSE\t/\tTRUE\t0\tA\t1\r\nb.example\tFALSE\t/\tTRUE\t0\tB\t2\r\n"
        #expect(try NetscapeCookieJar.parse(text) { "x" }.map(\.name) == ["A", "B"])
    }

    @Test func aStoredCookieThatWouldBreakALineIsNeverWritten() {
        let bad = [cookie(), cookie(name: "x", value: "v\r\nSet-Cookie: a=b")]
        #expect(throws: NetscapeCookieJar.Unwritable.self) { try NetscapeCookieJar.render(bad) }
        #expect(throws: NetscapeCookieJar.Unwritable.self) { try NetscapeCookieJar.lines(bad) }
        #expect(throws: NetscapeCookieJar.Unwritable.self) { try NetscapeCookieJar.headerValue(bad) }
        #expect(throws: NetscapeCookieJar.Unwritable.self) { try NetscapeCookieJar.lines([cookie(domain: "a.example\tTRUE\t/\tTRUE\t0\tx\ty\n")]) }
    }
}
