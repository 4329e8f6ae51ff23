import Foundation

/// Who exists at the emulated providers: tenants, users, clients, SharePoint sites.
///
/// Loaded from a JSON file (`authdeck-idp --directory FILE`, keys as the property names
/// below: `tenants`, `users`, `clients`, `certificatePEM`…) or the built-in default, which
/// has two tenants so that wrong-tenant sign-ins can be staged.
public struct EmulatorDirectory: Codable, Sendable {
    public struct Tenant: Codable, Sendable {
        public var id: String
        public var domain: String
    }

    public struct User: Codable, Sendable {
        public var username: String
        public var password: String
        public var name: String
        public var oid: String
        public var tenant: String
        /// Managed users may use the legacy SharePoint SAML path; federated ones may not.
        public var federated: Bool?
    }

    public struct Client: Codable, Sendable {
        public var id: String
        public var secret: String?
        /// PEM certificate (its SHA-256 thumbprint must match an assertion's `x5t#S256`)
        /// and the PEM public key that verifies the assertion.
        public var certificatePEM: String?
        public var publicKeyPEM: String?
        public var tenant: String?
    }

    /// A Facebook app: its id, the client token device login uses, and its secret.
    public struct FacebookApp: Codable, Sendable {
        public var id: String
        public var clientToken: String
        public var secret: String
    }

    public var tenants: [Tenant]
    public var users: [User]
    public var clients: [Client]
    /// Optional in a directory file; the built-in directory has one app.
    public var facebookApps: [FacebookApp]?
    /// The OAM identity domain its token endpoints require (default `DefaultDomain`).
    public var oamIdentityDomain: String?
    /// The Mobile and Social service domain its REST service requires in `X-IDAAS-SERVICEDOMAIN`
    /// (default `MobileServiceDomain`, the guide's example).
    public var oamServiceDomain: String?
    /// The User-Agent prefix its WebGates take for an SDK client (`OAMAuthUserAgentPrefix`;
    /// default `OIC`): such a client gets the `OAM-Auth` challenge, any other a login redirect.
    public var webGateUserAgentPrefix: String?

    public static let contoso = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    public static let fabrikam = "0d2b2a6e-3c1f-4a43-9b1e-5a6c7d8e9f00"

    public static let standard = EmulatorDirectory(
        tenants: [Tenant(id: contoso, domain: "contoso.com"), Tenant(id: fabrikam, domain: "fabrikam.com")],
        users: [
            User(username: "taro@contoso.com", password: "taro-pass-123", name: "本番 太郎",
                 oid: "00000000-0000-0000-0000-0000000a0001", tenant: contoso, federated: false),
            User(username: "jiro@contoso.com", password: "jiro-pass-123", name: "手須戸 二郎",
                 oid: "00000000-0000-0000-0000-0000000a0002", tenant: contoso, federated: true),
            User(username: "hanako@contoso.com", password: "hanako-pass-123", name: "山田 花子",
                 oid: "00000000-0000-0000-0000-0000000a0003", tenant: contoso, federated: false),
            User(username: "dev@fabrikam.com", password: "dev-pass-123", name: "Dev Fabrikam",
                 oid: "00000000-0000-0000-0000-0000000b0001", tenant: fabrikam, federated: false),
        ],
        clients: [
            Client(id: "04b07795-8ddb-461a-bbee-02f9e1bf7b46", secret: nil, certificatePEM: nil, publicKeyPEM: nil, tenant: nil),
            Client(id: "11111111-2222-3333-4444-555555555555", secret: "daemon-secret", certificatePEM: nil, publicKeyPEM: nil, tenant: contoso),
            Client(id: "oam-client", secret: "oam-secret", certificatePEM: nil, publicKeyPEM: nil, tenant: nil),
        ],
        facebookApps: [FacebookApp(id: "1234567890", clientToken: "fb-client-token", secret: "fb-app-secret")])

    public static func load(_ path: String) throws -> EmulatorDirectory {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(EmulatorDirectory.self, from: data)
    }

    /// A tenant by id, domain, or one of the multi-tenant words (which match any).
    func tenant(_ segment: String) -> Tenant? {
        tenants.first { $0.id == segment.lowercased() || $0.domain == segment.lowercased() }
    }

    func user(_ username: String) -> User? { users.first { $0.username.lowercased() == username.lowercased() } }
    func client(_ id: String) -> Client? { clients.first { $0.id == id } }
    func facebookApp(_ id: String) -> FacebookApp? { (facebookApps ?? []).first { $0.id == id } }
    /// A user's Facebook id: a stable number derived from their object id.
    func facebookId(_ user: User) -> String { String(abs(user.oid.hashValueStable) % 9_000_000_000_000 + 1_000_000_000_000) }
}

extension String {
    /// FNV-1a: a hash that is the same in every run (Swift's `hashValue` is seeded).
    var hashValueStable: Int {
        var h: UInt64 = 0xcbf29ce484222325
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return Int(truncatingIfNeeded: h >> 1)
    }
}
