import Testing
import AuthDeckCore
@testable import AuthDeckApp

/// One sentence per fact (issue 31, item 15): the account named once, the sign-in command given once.
@Suite struct RemedyTests {
    let account = Account(id: "oidc/573b50cf", providerId: "oidc", subject: "s", username: "u",
                          createdAt: Instant(secondsSinceEpoch: 1_800_000_000))

    @Test func aRemedyThatNamesTheAccountAndTheCommandIsNotRepeated() {
        let said = Remedy.signInAgain("oidc/573b50cf holds no refresh token; sign in again: `authdeck login oidc`", account: account)
        #expect(said == "oidc/573b50cf holds no refresh token; sign in again: `authdeck login oidc`")
    }

    /// The adapters' own remedy says "it", so the account is named once, in front.
    @Test func aRemedyAboutItGetsTheAccountInFront() {
        let said = Remedy.signInAgain("it holds no refresh token; sign in again: `authdeck login oidc`", account: account)
        #expect(said == "oidc/573b50cf: it holds no refresh token; sign in again: `authdeck login oidc`")
    }

    @Test func aBareRemedyGetsTheAccountAndTheCommandOnce() {
        let said = Remedy.signInAgain("the grant expired or was revoked — sign in again", account: account)
        #expect(said == "oidc/573b50cf: the grant expired or was revoked — sign in again (`authdeck login oidc`)")
    }
}
