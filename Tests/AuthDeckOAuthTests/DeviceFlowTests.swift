import Testing
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth
import AuthDeckTestSupport

/// RFC 8628 polling: interval, slow_down (+5 s for this and later polls), expiry, denial.
@Suite struct DeviceFlowTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))

    func flow(_ http: FakeHTTPClient, sleeper: RecordingSleeper) -> DeviceFlow {
        DeviceFlow(deviceEndpoint: "https://idp.test/device",
                   token: TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http),
                   scopes: ["openid"], sleeper: sleeper, clock: clock)
    }

    let start = #"{"device_code":"DC","user_code":"ABCD-EFGH","verification_uri":"https://idp.test/device","expires_in":600,"interval":2}"#

    @Test func slowDownAddsFiveSecondsForThisAndLaterPolls() async throws {
        let http = FakeHTTPClient(json: [
            (200, start),
            (400, #"{"error":"authorization_pending"}"#),
            (400, #"{"error":"slow_down"}"#),
            (400, #"{"error":"authorization_pending"}"#),
            (200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600}"#),
        ])
        let sleeper = RecordingSleeper()
        let device = flow(http, sleeper: sleeper)
        let authorization = try await device.start()
        #expect(authorization.userCode == "ABCD-EFGH" && authorization.interval == 2)
        let tokens = try await device.poll(authorization)
        #expect(tokens.accessToken == Secret("at"))
        #expect(sleeper.slept == [2, 2, 7, 7])
        #expect(http.form(1)["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
        #expect(http.form(1)["device_code"] == "DC" && http.form(1)["client_id"] == "c")
    }

    /// Azure AD's answers carry AADSTS numbers, and a provider's refinement shows those as the
    /// code; polling must still go by the OAuth `error` (pending, slow_down) underneath.
    @Test func aRefinementThatRenamesTheCodeDoesNotEndPolling() async throws {
        let http = FakeHTTPClient(json: [
            (200, start),
            (400, #"{"error":"authorization_pending","error_codes":[70016]}"#),
            (400, #"{"error":"slow_down","error_codes":[70016]}"#),
            (400, #"{"error":"authorization_pending","error_codes":[70016]}"#),
            (200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600}"#),
        ])
        let sleeper = RecordingSleeper()
        var token = TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http)
        token.refine = { _, generic in AuthFailure(generic.errorClass, code: "AADSTS70016", remedy: generic.remedy) }
        let device = DeviceFlow(deviceEndpoint: "https://idp.test/device", token: token, scopes: ["openid"], sleeper: sleeper, clock: clock)
        let tokens = try await device.poll(try await device.start())
        #expect(tokens.accessToken == Secret("at"))
        #expect(sleeper.slept == [2, 2, 7, 7])
    }

    /// A 503 (or a network error) while the person is still approving does not end the wait:
    /// the poll goes on, the interval doubled, and the sign-in completes (issue 31: one blip
    /// ended a 15-minute device wait).
    @Test func aServerErrorWhilePollingDoesNotEndTheWait() async throws {
        let http = FakeHTTPClient(json: [
            (200, start),
            (400, #"{"error":"authorization_pending"}"#),
            (503, "unavailable"),
            (400, #"{"error":"authorization_pending"}"#),
            (200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600}"#),
        ])
        let sleeper = RecordingSleeper()
        let device = flow(http, sleeper: sleeper)
        let tokens = try await device.poll(try await device.start())
        #expect(tokens.accessToken == Secret("at"))
        #expect(sleeper.slept == [2, 2, 4, 4])
    }

    @Test func aMissingIntervalMeansFiveSeconds() async throws {
        let http = FakeHTTPClient(json: [(200, #"{"device_code":"DC","user_code":"U","verification_uri":"https://x/d","expires_in":600}"#)])
        #expect(try await flow(http, sleeper: RecordingSleeper()).start().interval == 5)
    }

    @Test func expiredAndDeclinedCodesStopPolling() async throws {
        for (body, cls) in [(#"{"error":"expired_token"}"#, ErrorClass.needsInteraction), (#"{"error":"access_denied"}"#, .declined)] {
            let http = FakeHTTPClient(json: [(200, start), (400, body)])
            let device = flow(http, sleeper: RecordingSleeper())
            do {
                _ = try await device.poll(try await device.start())
                Issue.record("polling went on after \(body)")
            } catch let f as AuthFailure {
                #expect(f.errorClass == cls)
            }
        }
    }

    @Test func theCodeExpiringOnOurClockStopsPolling() async throws {
        let http = FakeHTTPClient(json: [(200, start)])
        let device = flow(http, sleeper: RecordingSleeper())
        let authorization = try await device.start()
        clock.advance(.seconds(601))
        await #expect(throws: AuthFailure.self) { try await device.poll(authorization) }
        #expect(http.requests.count == 1)
    }
}
