import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth
import Synchronization

/// Token responses are validated strictly, and every failure gets the right class.
@Suite struct TokenEndpointTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    func parse(_ body: String) throws -> TokenSet { try TokenSet.parse(Array(body.utf8), from: "idp.test") }

    @Test func aGoodResponseParses() throws {
        let t = try parse(#"{"access_token":"at","token_type":"Bearer","expires_in":3599,"refresh_token":"rt","scope":"a b","client_info":"xyz"}"#)
        #expect(t.accessToken == Secret("at") && t.refreshToken == Secret("rt") && t.expiresIn == 3599)
        #expect(t.scope == ["a", "b"] && t.extra["client_info"] == "xyz")
        #expect(try parse(#"{"access_token":"at","token_type":"bearer","expires_in":"3599"}"#).expiresIn == 3599)
        let c = t.credentials(now: now, requestedScopes: ["x"], idTokenClaims: [:])
        #expect(c.accessTokens[0].expiresAt == now + .seconds(3599) && c.accessTokens[0].scopes == ["a", "b"])
        // No expires_in: assume an hour rather than forever.
        let noExpiry = try parse(#"{"access_token":"at","token_type":"Bearer"}"#)
        #expect(noExpiry.credentials(now: now, requestedScopes: [], idTokenClaims: [:]).accessTokens[0].expiresAt == now + .hours(1))
    }

    /// A refresh grant with no answer in time (or a connection lost while waiting) is still
    /// transient, but no longer "nothing was changed": the provider may have spent the token.
    /// Not connecting at all, or another grant, still says nothing was changed.
    @Test func aRefreshThatMayHaveArrivedDoesNotSayNothingChanged() async throws {
        func failure(_ grant: TokenEndpoint.Grant, _ error: HTTPError) async -> AuthFailure? {
            let http = FakeHTTPClient([{ _ in throw error }])
            let endpoint = TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http)
            do {
                _ = try await endpoint.request([("grant_type", "x")], grant: grant, secrets: [], now: now)
                return nil
            } catch {
                return error as? AuthFailure
            }
        }
        for error in [HTTPError.timedOut(host: "idp.test", seconds: 30), .transport(code: 56, message: "Recv failure", host: "idp.test")] {
            let f = await failure(.refresh, error)
            #expect(f?.errorClass == .transient)
            #expect(f?.remedy.contains("may have spent the refresh token") == true, "\(String(describing: f))")
            #expect(f?.remedy.contains("nothing was changed") == false)
        }
        let refused = await failure(.refresh, .transport(code: 7, message: "Couldn't connect", host: "idp.test"))
        #expect(refused?.remedy.hasSuffix("nothing was changed") == true)
        let code = await failure(.authorizationCode, .timedOut(host: "idp.test", seconds: 30))
        #expect(code?.remedy.hasSuffix("nothing was changed") == true)
    }

    /// A refresh grant's new refresh token is told to the renewal that spent the old one as soon
    /// as the answer parses (`RotationHearing`); other grants, answers without one and refused
    /// answers tell nothing.
    @Test func aRotatedRefreshTokenIsToldAsTheAnswerParses() async throws {
        let heard = Mutex<[String]>([])
        func run(_ grant: TokenEndpoint.Grant, status: Int, body: String) async {
            let http = FakeHTTPClient(json: [(status, body)])
            let endpoint = TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http)
            let hearing = RotationHearing { value in heard.withLock { $0.append(value.exposedValue) } }
            _ = try? await endpoint.request([("grant_type", "x"), ("refresh_token", "rt-1")], grant: grant, secrets: [], hearing: hearing, now: now)
        }
        await run(.refresh, status: 200, body: #"{"access_token":"at","token_type":"Bearer","refresh_token":"rt-2"}"#)
        await run(.refresh, status: 200, body: #"{"access_token":"at","token_type":"Bearer"}"#)
        await run(.refresh, status: 400, body: #"{"error":"invalid_grant","refresh_token":"rt-x"}"#)
        await run(.authorizationCode, status: 200, body: #"{"access_token":"at","token_type":"Bearer","refresh_token":"rt-3"}"#)
        #expect(heard.withLock { $0 } == ["rt-2"])
    }

    @Test(arguments: [
        (#"<html><body>Error</body></html>"#, "an HTML page, not JSON"),
        (#"{"access_token":"at","token_type":"Bearer""#, "not a JSON object"),
        ("", "an empty body"),
        (#"{"token_type":"Bearer"}"#, "\"access_token\" is missing"),
        (#"{"access_token":"at"}"#, "\"token_type\" is missing"),
        (#"{"access_token":"at","token_type":"Bearer","expires_in":-5}"#, "\"expires_in\" is -5; a lifetime must be positive"),
        (#"{"access_token":"at","token_type":"Bearer","expires_in":0}"#, "\"expires_in\" is 0; a lifetime must be positive"),
        (#"{"access_token":"at","token_type":"Bearer","expires_in":"soon"}"#, "\"expires_in\" is a string, not a number of seconds"),
        (#"{"access_token":"at","token_type":"Bearer","expires_in":1000000000000}"#, "\"expires_in\" is 1000000000000 s, more than ten years"),
        (#"{"access_token":"at","token_type":"Bearer","expires_in":true}"#, "\"expires_in\" is a boolean, not a number of seconds"),
    ])
    func badResponsesAreTransientAndNamed(body: String, what: String) {
        do {
            _ = try parse(body)
            Issue.record("accepted \(body)")
        } catch let f as AuthFailure {
            #expect(f.errorClass == .transient)
            #expect(f.remedy == "idp.test answered with an invalid token response (\(what)); nothing was changed")
        } catch {
            Issue.record("\(error)")
        }
    }

    func endpoint(_ http: FakeHTTPClient, auth: OAuthClient.Authentication = .secretBasic(Secret("s e/cret"))) -> TokenEndpoint {
        TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "my client", authentication: auth), http: http)
    }

    func failure(_ status: Int, _ body: String, grant: TokenEndpoint.Grant = .refresh, contentType: String = "application/json",
                 headers: [HTTPHeader] = []) async -> AuthFailure? {
        let http = FakeHTTPClient([{ _ in FakeHTTPClient.response(status, body, contentType: contentType, headers: headers) }])
        do {
            _ = try await endpoint(http).request([("grant_type", "refresh_token"), ("refresh_token", "RT-SECRET-1")],
                                                 grant: grant, secrets: ["RT-SECRET-1"], now: now)
            return nil
        } catch {
            return error as? AuthFailure
        }
    }

    @Test func failuresAreClassified() async {
        #expect(await failure(503, "", headers: [HTTPHeader("Retry-After", "30")])
                == AuthFailure(.transient, code: "http 503", remedy: "idp.test is unavailable (HTTP 503) (retry after 30 s); nothing was changed, try again later"))
        #expect(await failure(429, "")?.errorClass == .transient)
        #expect(await failure(400, #"{"error":"invalid_grant"}"#)?.errorClass == .needsInteraction)
        #expect(await failure(400, #"{"error":"interaction_required"}"#)?.errorClass == .needsInteraction)
        #expect(await failure(401, #"{"error":"invalid_client"}"#)?.errorClass == .misconfigured)
        #expect(await failure(400, #"{"error":"access_denied"}"#)?.errorClass == .declined)
        #expect(await failure(400, #"{"error":"temporarily_unavailable"}"#)?.errorClass == .transient)
        // glewlwyd's answer to a reused one-use refresh token: 400 with an empty body.
        #expect(await failure(400, "")?.errorClass == .needsInteraction)
        // glewlwyd's answer to a wrong password: 403 with an empty body — the person's
        // credentials, not the endpoints (the new-user trial read "check the provider's endpoints").
        let refusedPassword = await failure(403, "", grant: .password)
        #expect(refusedPassword?.errorClass == .needsInteraction)
        #expect(refusedPassword?.remedy == "idp.test did not accept the username or password (HTTP 403 with an empty body); check them and sign in again")
        #expect(await failure(401, "", grant: .password)?.errorClass == .misconfigured, "an empty 401 may be the client's own credentials")
        // Issue 31, item 21: a wrong password read as a spent refresh token.
        let wrongPassword = await failure(400, #"{"error":"invalid_grant"}"#, grant: .password)
        #expect(wrongPassword?.remedy == "the username or password was not accepted; check them and sign in again")
        #expect(wrongPassword?.errorClass == .needsInteraction)
        #expect(await failure(400, #"{"error":"invalid_grant"}"#)?.remedy.contains("no longer valid") == true)
        #expect(await failure(404, "<html>", contentType: "text/html")?.remedy
                == "idp.test answered HTTP 404 with text/html, not an OAuth error; check the provider's endpoints")
    }

    /// Issue 26: `login --password` sent the password in clear to a plain-http endpoint (one a
    /// configuration URL had named). Refused before anything is sent; https and loopback go.
    @Test func aPasswordIsNeverSentOverPlainHttpToAnotherMachine() async throws {
        let grant = [("grant_type", "password"), ("username", "taro"), ("password", "PW-SECRET-1")]
        for url in ["http://idp.example/token", "http://169.254.169.254/token", "HTTP://IDP.EXAMPLE:80/token"] {
            let http = FakeHTTPClient(json: [(200, #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#)])
            let endpoint = TokenEndpoint(url: url, client: OAuthClient(id: "c", authentication: .none), http: http)
            do {
                _ = try await endpoint.request(grant, grant: .password, secrets: ["PW-SECRET-1"], now: now)
                Issue.record("sent a password to \(url)")
            } catch let f as AuthFailure {
                #expect(f.code == "insecure_endpoint" && f.remedy.contains("over plain http") && !f.remedy.contains("PW-SECRET-1"), "\(f)")
            }
            #expect(http.requests.isEmpty, "nothing was sent to \(url)")
        }
        for url in ["https://idp.example/token", "http://127.0.0.1:8080/token", "http://localhost:8080/token"] {
            let http = FakeHTTPClient(json: [(200, #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#)])
            let endpoint = TokenEndpoint(url: url, client: OAuthClient(id: "c", authentication: .none), http: http)
            let tokens = try await endpoint.request(grant, grant: .password, secrets: ["PW-SECRET-1"], now: now)
            #expect(tokens.accessToken == Secret("at") && http.requests.count == 1, "\(url)")
        }
        // Issue 38: every grant is held to it now (a grant's answer is a token, and a refresh
        // token or client secret went to a plain-http token endpoint that discovery named).
        let http = FakeHTTPClient(json: [(200, #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#)])
        await #expect(throws: AuthFailure.self) {
            _ = try await TokenEndpoint(url: "http://idp.example/token", client: OAuthClient(id: "c", authentication: .none), http: http)
                .request([("grant_type", "client_credentials")], grant: .clientCredentials, secrets: [], now: now)
        }
        #expect(http.requests.isEmpty)
    }

    @Test func secretsAreRedactedFromServerText() async {
        let f = await failure(400, #"{"error":"invalid_grant","error_description":"token RT-SECRET-1 is bad\r\nTrace ID: 1"}"#)
        #expect(f?.remedy.contains("RT-SECRET-1") == false)
        #expect(f?.remedy.contains("token ‹redacted› is bad") == true)
        #expect(f?.remedy.contains("Trace ID") == false)
    }

    /// Issue 26: `error` echoing the refresh token or the client secret, holding escapes or
    /// 900 KB was printed and stored raw. It is kept only as a short RFC 6749 code.
    @Test func theErrorCodeIsKeptOnlyAsAShortRFC6749CodeThatIsNoSecret() async {
        for (said, kept) in [("RT-SECRET-1", "redacted_error"), ("s e/cret", "redacted_error"), ("x RT-SECRET-1 y", "redacted_error"),
                             ("\\u001b]0;pwned\\u0007\\u001b[2J", "malformed_error"), ("a\\\"b", "malformed_error"), ("", "malformed_error"),
                             ("invalid_grant\\u202e", "malformed_error"), (String(repeating: "x", count: 900_000), "malformed_error"),
                             (String(repeating: "y", count: 64), String(repeating: "y", count: 64))] {
            let f = await failure(400, #"{"error":"\#(said)"}"#)
            #expect(f?.code == kept && f?.oauthError == kept, "\(said.prefix(40)): \(String(describing: f?.code.prefix(80)))")
            #expect(f?.description.contains("RT-SECRET") == false && f?.description.contains("s e/cret") == false)
            #expect(f.map { $0.description.utf8.count < 400 } == true)
            #expect(f?.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 } == false)
        }
        // Codes as RFC 6749 and RFC 8628 spell them still classify and keep the device flow polling.
        #expect(await failure(400, #"{"error":"invalid_grant"}"#)?.code == "invalid_grant")
        #expect(await failure(400, #"{"error":"authorization_pending"}"#, grant: .deviceCode)?.oauthError == "authorization_pending")
    }

    @Test func networkFailuresAreTransient() async {
        let http = FakeHTTPClient([{ _ in throw HTTPError.transport(code: 7, message: "Couldn't connect to server", host: "idp.test") }])
        do {
            _ = try await endpoint(http).request([("grant_type", "refresh_token")], grant: .refresh, secrets: [], now: now)
        } catch let f as AuthFailure {
            #expect(f.errorClass == .transient && f.code == "network")
        } catch { Issue.record("\(error)") }
        let tls = FakeHTTPClient([{ _ in throw HTTPError.tlsVerification(message: "self-signed", host: "idp.test") }])
        do {
            _ = try await endpoint(tls).request([("grant_type", "refresh_token")], grant: .refresh, secrets: [], now: now)
        } catch let f as AuthFailure {
            #expect(f.errorClass == .misconfigured && f.remedy.contains("TLS certificate not trusted"))
        } catch { Issue.record("\(error)") }
    }

    @Test func clientAuthenticationIsSentAsConfigured() async throws {
        let ok = #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#
        let basic = FakeHTTPClient(json: [(200, ok)])
        _ = try await endpoint(basic).request([("grant_type", "client_credentials")], grant: .clientCredentials, secrets: [], now: now)
        let header = basic.requests[0].headers.first { $0.name == "Authorization" }?.value
        // RFC 6749 §2.3.1: id and secret are form-encoded before base64.
        #expect(header == "Basic " + Data("my%20client:s%20e%2Fcret".utf8).base64EncodedString())
        #expect(basic.form(0)["client_secret"] == nil)
        let post = FakeHTTPClient(json: [(200, ok)])
        _ = try await endpoint(post, auth: .secretPost(Secret("pw"))).request([("grant_type", "client_credentials")],
                                                                             grant: .clientCredentials, secrets: [], now: now)
        #expect(post.form(0)["client_id"] == "my client" && post.form(0)["client_secret"] == "pw")
        #expect(!post.requests[0].headers.contains { $0.name == "Authorization" })
    }
}
