import Foundation

/// Mobile client registration on the Mobile and Social REST service (PROVIDERS.md §5, "Client
/// registration (mobile clients)"), and logout.
///
/// - `POST …/mobileoamauthentication/register`: `USERCREDENTIAL` (username, password),
///   `…-To-Create: CLIENTREGHANDLE`, `clientId` and a `deviceProfile` object (the
///   `oracle:idm:claims:client:sdkversion`, `…:ostype`, `…:osversion` claims and a `hardwareIds`
///   object) → a `CLIENTREGHANDLE`, URL-encoded like user tokens. A missing profile claim is
///   400 naming it.
/// - Every other call of the mobile service (`authenticate`, `access`) needs
///   `X-Idaas-Rest-Authorization: UIDPASSWORD cred="<base64(clientId:handle)>"` naming a live
///   handle of that application, registered for the same user (the credentials' user, or the
///   user token's): else 401.
/// - `…/logout` ends the user token's session; with `"clearRegistrationHandles": "true"` it
///   also deletes the handle the header names (UNVERIFIED wire form: no public source shows
///   it). Either is enough; with neither live, 401.
extension OAMRestRoutes {
    static let mobile = "mobileoamauthentication"
    static let profileClaims = ["oracle:idm:claims:client:sdkversion", "oracle:idm:claims:client:ostype", "oracle:idm:claims:client:osversion"]

    func register(_ body: [String: Any], _ f: [String: String]) async -> EmulatorResponse {
        guard f["x-idaas-rest-subject-type"] == "USERCREDENTIAL", f["x-idaas-rest-new-token-type-to-create"] == "CLIENTREGHANDLE" else {
            return Self.refusal(400, "Expected X-Idaas-Rest-Subject-Type USERCREDENTIAL and X-Idaas-Rest-New-Token-Type-To-Create CLIENTREGHANDLE.")
        }
        guard let client = f["clientid"], !client.isEmpty else { return Self.refusal(400, "clientId (the application's name) is required.") }
        guard let profile = body.first(where: { $0.key.lowercased() == "deviceprofile" })?.value as? [String: Any] else {
            return Self.refusal(400, "deviceProfile (a JSON object of the device's claims) is required.")
        }
        var claims: [String: String] = [:]
        for name in Self.profileClaims {
            guard let value = profile[name] as? String, !value.isEmpty else { return Self.refusal(400, "deviceProfile has no \(name).") }
            claims[name] = value
        }
        guard let hardware = profile["hardwareIds"] as? [String: Any] else { return Self.refusal(400, "deviceProfile has no hardwareIds object.") }
        claims["hardwareIds"] = String(hardware.count)
        guard let user = await state.directory.user(f["x-idaas-rest-subject-username"] ?? ""),
              user.password == f["x-idaas-rest-subject-password"] else {
            return Self.refusal(401, "Invalid user credentials.")
        }
        let name = user.username
        let handle = await state.withOAMRestHandles { [claims] in $0.register(clientId: client, user: name, profile: claims) }
        return Self.token("CLIENTREGHANDLE", formEscape(handle), user: name)
    }

    /// A refusal when a call of the mobile service lacks a live handle of the user it acts
    /// for; nil when it may go on (and the handle is counted as used).
    func registeredClient(_ r: EmulatorRequest, operation: String, fields f: [String: String]) async -> EmulatorResponse? {
        let user: String?
        switch operation {
        case "authenticate": user = await state.directory.user(f["x-idaas-rest-subject-username"] ?? "")?.username
        case "access": user = await state.withOAMRest { $0.liveUser(Self.decoded(f["x-idaas-rest-subject-value"] ?? "")) }
        default: return nil
        }
        let header = r.headers["x-idaas-rest-authorization"]
        let bound = await state.withOAMRestHandles { $0.use(header)?.user }
        guard let bound else {
            return Self.refusal(401, "This client is not registered: X-Idaas-Rest-Authorization names no live registration handle of the application.")
        }
        // A user the handle was not registered for is refused; an unknown user or a dead user
        // token is left to the call itself, which refuses it as such.
        if let user, bound.lowercased() != user.lowercased() {
            return Self.refusal(401, "The registration handle was issued for another user.")
        }
        return nil
    }

    func logout(_ r: EmulatorRequest, _ f: [String: String]) async -> EmulatorResponse {
        var done = false
        if let token = f["x-idaas-rest-subject-value"].map(Self.decoded), await state.withOAMRest({ $0.liveUser(token) }) != nil {
            await state.withOAMRest { $0.end(userToken: token) }
            done = true
        }
        if f["clearregistrationhandles"]?.lowercased() == "true" {
            let header = r.headers["x-idaas-rest-authorization"]
            if await state.withOAMRestHandles({ $0.delete(header) }) { done = true }
        }
        guard done else { return Self.refusal(401, "The user token (or the registration handle) is invalid or has been revoked.") }
        return .json(200, ["X-Idaas-Rest-Provider-Type": "OAM_11G", "message": "Logged out."])
    }
}
