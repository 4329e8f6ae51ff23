import Testing
import AuthDeckCore

/// Issue 40: `options.site` as a host or as the address bar's URL is one site, and cookies
/// are matched against it one way (host-only FedAuth and domain rtFa alike).
@Suite struct SiteHostTests {
    @Test(arguments: ["contoso.sharepoint.com", "https://contoso.sharepoint.com", "https://contoso.sharepoint.com/",
                      "HTTPS://Contoso.SharePoint.com", " contoso.sharepoint.com. ", "contoso.sharepoint.com/"])
    func aHostOrARootURLIsTheSameSite(text: String) throws {
        let site = try SiteHost(parsing: text)
        #expect(site.host == "contoso.sharepoint.com")
        #expect(site.origin == "https://contoso.sharepoint.com")
    }

    @Test(arguments: [
        ("http://contoso.sharepoint.com", "found a http URL"),
        ("https://contoso.sharepoint.com:8443", "must not name a port"),
        ("contoso.sharepoint.com:443", "must not name a port"),
        ("https://contoso.sharepoint.com/sites/team", "found \"/sites/team\" after the host"),
        ("https://contoso.sharepoint.com/?a=b", "found \"/?a=b\" after the host"),
        ("https://me@contoso.sharepoint.com", "must not carry a user name"),
        ("contoso", "must name the SharePoint host"),
        ("", "is empty"),
        ("https://", "must name the SharePoint host"),
        ("contoso..sharepoint.com", "must name the SharePoint host"),
    ])
    func otherAddressesAreRefusedSayingWhy(text: String, why: String) {
        #expect(throws: SiteHost.Problem.self) { try SiteHost(parsing: text) }
        do { _ = try SiteHost(parsing: text) } catch { #expect("\(error)".contains(why), "\(text): \(error)") }
    }

    @Test func cookiesOfTheHostAndItsParentDomainsAreTheSite() throws {
        let site = try SiteHost(parsing: "https://contoso.sharepoint.com")
        for domain in ["contoso.sharepoint.com", "Contoso.SharePoint.com", ".contoso.sharepoint.com", ".sharepoint.com", ".sharepoint.com."] {
            #expect(site.sends(cookieDomain: domain), "\(domain)")
        }
        for domain in ["sharepoint.com", "fabrikam.sharepoint.com", ".fabrikam.sharepoint.com", "xcontoso.sharepoint.com",
                       ".tcontoso.sharepoint.com", "example.org", ".", ""] {
            #expect(!site.sends(cookieDomain: domain), "\(domain)")
        }
    }
}
