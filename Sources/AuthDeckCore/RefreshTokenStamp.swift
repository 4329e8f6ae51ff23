/// Which refresh token a renewal started from: its generation and its id.
///
/// A renewal commits only if the account still holds that token. The generation alone was
/// not enough: a sign-out deletes the refresh token and the next sign-in starts again at
/// generation 1, so a renewal begun before the sign-out (or its rescue file) passed the check
/// and put the signed-out grant back over the new sign-in. Ids are made fresh for every token.
public struct RefreshTokenStamp: Sendable, Equatable {
    public var generation: Int
    /// Nil only in a rescue file written before ids were recorded: then the generation decides.
    public var id: String?

    public init(generation: Int, id: String?) {
        self.generation = generation
        self.id = id
    }

    /// Whether the account's current refresh token (`held`) is the one a renewal started from
    /// (`expected`; nil on both sides: the account had none and has none).
    public static func holds(_ held: RefreshTokenStamp?, _ expected: RefreshTokenStamp?) -> Bool {
        guard let held, let expected else { return held == nil && expected == nil }
        return held.generation == expected.generation && (expected.id == nil || expected.id == held.id)
    }
}

extension RefreshToken {
    /// This token's stamp, for a renewal that starts from it.
    public var stamp: RefreshTokenStamp { RefreshTokenStamp(generation: generation, id: id) }
}
