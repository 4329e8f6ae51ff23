import Foundation

/// An Azure Container Registry, as `docker` and `az acr login` meet it, for the docker helper's
/// tests and the demo: reached over TLS through the emulator's own https port (`TLSListener`)
/// or `Tests/harness/tls-proxy`, either of which names the address the client used in
/// `X-Forwarded-Host` and `X-Forwarded-Proto`, so the token realm is the https one.
///
/// - `POST /oauth2/exchange` (form `grant_type=access_token`, `service`, `access_token`): a
///   Microsoft Entra token for Azure Resource Manager (`https://management.azure.com`) becomes a
///   registry refresh token (`{"refresh_token"}`); a token for another audience gets 401.
/// - `GET /oauth2/token?service&scope` with Basic `00000000-0000-0000-0000-000000000000` and the
///   registry refresh token as password (what docker sends), or `POST` with
///   `grant_type=refresh_token`: a registry access token (`{"access_token"}`).
/// - `GET|HEAD /v2/…`: the registry API for a valid registry access token — any
///   `/v2/NAME/manifests/REF` is a one-layer-less image — else 401 with
///   `WWW-Authenticate: Bearer realm=…/oauth2/token,service=…`.
struct RegistryRoutes: Sendable {
    let state: EmulatorState
    static let tokenUser = "00000000-0000-0000-0000-000000000000"

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        let host = r.headers["x-forwarded-host"] ?? r.headers["host"] ?? "127.0.0.1"
        let scheme = r.headers["x-forwarded-proto"] ?? "http"
        switch r.path {
        case "/oauth2/exchange" where r.method == "POST":
            let form = r.form
            guard form["grant_type"] == "access_token", let aad = form["access_token"],
                  let grant = await state.accessGrant(aad), grant.audience == "https://management.azure.com" else {
                return .json(401, ["errors": [["code": "UNAUTHORIZED", "message": "the access token is not valid for Azure Resource Manager"]]])
            }
            return .json(200, ["refresh_token": await state.issueRegistryRefresh(user: grant.user ?? grant.clientId)])
        case "/oauth2/token":
            let refresh = r.basicCredentials.flatMap { $0.0 == Self.tokenUser ? $0.1 : nil } ?? r.form["refresh_token"]
            guard let refresh, let access = await state.issueRegistryAccess(refresh: refresh) else {
                return .json(401, ["errors": [["code": "UNAUTHORIZED", "message": "the registry refresh token is not valid"]]])
            }
            return .json(200, ["access_token": access])
        default:
            guard r.path == "/v2" || r.path.hasPrefix("/v2/") else { return nil }
            guard let auth = r.headers["authorization"], auth.hasPrefix("Bearer "), await state.registryAccessValid(String(auth.dropFirst(7))) else {
                return .json(401, ["errors": [["code": "UNAUTHORIZED", "message": "authentication required"]]],
                             headers: [("WWW-Authenticate", "Bearer realm=\"\(scheme)://\(host)/oauth2/token\",service=\"\(host)\"")])
            }
            if r.path.contains("/manifests/") {
                let manifest = #"{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","size":2,"digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"},"layers":[]}"#
                return EmulatorResponse(status: 200, headers: [("Content-Type", "application/vnd.docker.distribution.manifest.v2+json")], body: Data(manifest.utf8))
            }
            if r.path.contains("/blobs/") { return EmulatorResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: Data("{}".utf8)) }
            return .json(200, [:] as [String: String])
        }
    }
}
