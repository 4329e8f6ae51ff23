/// The `id_token_claims` table's columns: an account's validated id_token claims, in clear
/// (they name the person, not a secret).
public enum ClaimColumn: Int32, CredentialColumn {
    case accountId, name, value

    public static let table = "id_token_claims"
    public static let sealedColumn: Self? = nil

    public var name: String {
        switch self {
        case .accountId: "account_id"
        case .name: "name"
        case .value: "value"
        }
    }
}
