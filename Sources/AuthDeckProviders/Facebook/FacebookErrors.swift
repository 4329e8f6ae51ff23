import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// Facebook Graph errors (`{"error":{"code","error_subcode",…}}`) classified with a remedy
/// per subcode (PROVIDERS.md §4).
enum FacebookErrors {
    static let sessionRemedies: [Int: String] = [
        458: "the app is no longer authorized for this Facebook account — sign in again",
        459: "the Facebook account is checkpointed — log in at facebook.com to resolve it, then sign in again",
        460: "the Facebook password changed — sign in again",
        463: "the Facebook session expired — sign in again",
        464: "the Facebook account is not confirmed — confirm it at facebook.com, then sign in",
        467: "the Facebook token is invalid (logged out?) — sign in again",
    ]

    /// The code and subcode of an error body, when it is one.
    static func codes(_ body: [UInt8]) -> (code: Int, subcode: Int?, message: String)? {
        guard let json = JSONObject(bytes: body), let error = json.object("error"), let code = error.integer("code") else { return nil }
        return (Int(code), error.integer("error_subcode").map { Int($0) }, error.string("message") ?? "")
    }

    /// The `error_subcode` a failure's tag carries (`fb 31/1349174` → 1349174).
    static func subcode(of failure: AuthFailure) -> Int? {
        guard failure.code.hasPrefix("fb "), let slash = failure.code.lastIndex(of: "/") else { return nil }
        return Int(failure.code[failure.code.index(after: slash)...])
    }

    static func failure(code: Int, subcode: Int?, message: String) -> AuthFailure {
        let tag = "fb \(code)" + (subcode.map { "/\($0)" } ?? "")
        switch code {
        case 190, 102:
            return AuthFailure(.needsInteraction, code: tag,
                               remedy: subcode.flatMap { sessionRemedies[$0] } ?? "the Facebook token is no longer valid — sign in again")
        case 1, 2, 4, 17, 32, 341, 613:
            return AuthFailure(.transient, code: tag, remedy: "Facebook is busy or rate-limiting (code \(code)); nothing was changed, try again later")
        default:
            let said = TerminalText.inert(String(message.prefix(120)))
            return AuthFailure(.misconfigured, code: tag, remedy: "Facebook refused the request (code \(code))" + (said.isEmpty ? "" : ": \(said)"))
        }
    }
}
