import Testing
import AuthDeckCore

/// Issue 39: the same mistake (a flow the provider does not offer) exited 1 for an OIDC
/// provider and 2 for Facebook. Every adapter's "flow not offered" is usage, 2.
@Suite struct FlowNotOfferedStatusTests {
    @Test func everyFlowNotOfferedIsUsage() {
        for code in ["grant_not_registered", "password_disabled", "no_device_endpoint", "no_authorization_endpoint", "unsupported"] {
            #expect(AuthFailure(.misconfigured, code: code, remedy: "r").exitStatus == ExitStatus.usage, "\(code)")
        }
        #expect(AuthFailure(.misconfigured, code: "invalid_client", remedy: "r").exitStatus == ExitStatus.failure)
    }
}
