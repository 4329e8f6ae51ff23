import Testing
import AuthDeckCore

/// RFC 3492 encoding against known vectors (the RFC's own samples among them), and the `xn--`
/// form `config import-url` shows beside an internationalised host.
@Suite struct PunycodeTests {
    @Test(arguments: [
        ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("ü", "tda"), ("пример", "e1afmkfd"), ("日本語", "wgv71a119e"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),                                      // RFC 3492 7.1 (L)
        ("PorquénopuedensimplementehablarenEspañol", "PorqunopuedensimplementehablarenEspaol-fmd56a"),  // (J)
        ("ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),                                    // (A)
        ("😀", "e28h"), ("abc", "abc-"),
    ])
    func encodesKnownVectors(label: String, expected: String) {
        #expect(Punycode.encode(label) == expected)
    }

    @Test func hostsAreWrittenLabelByLabel() {
        #expect(Punycode.asciiHost("bücher.example") == "xn--bcher-kva.example")
        #expect(Punycode.asciiHost("Login.Example.COM") == "login.example.com", "ASCII labels are only lowercased")
        #expect(Punycode.asciiHost("pаypal.example") == "xn--pypal-4ve.example", "a Cyrillic а shows")
    }

    @Test func onlyHttpsOrLoopbackKeepsASecretPrivate() {
        for url in ["https://idp.example/token", "http://127.0.0.1:8080/token", "http://localhost/t", "http://[::1]:9/t", "HTTPS://IDP.EXAMPLE"] {
            #expect(TransportSecurity.keepsPrivate(url), "\(url)")
        }
        for url in ["http://idp.example/token", "http://169.254.169.254/latest", "http://127.0.0.1.evil.example/t",
                    "http://user@idp.example/", "http://128.0.0.1/", "ftp://127.0.0.1/", "idp.example/token"] {
            #expect(!TransportSecurity.keepsPrivate(url), "\(url)")
        }
    }
}
