import Foundation
import AuthDeckCore

/// Reads extSTS.srf's SOAP answer: the compact token, or the fault turned into a remedy.
///
/// Why apart from the HTTP exchange: this is the part that meets hostile or undocumented
/// XML, so it is a pure function the fuzz harness can drive without a network.
public enum SAMLTokenResponse {
    /// The `BinarySecurityToken` of a successful answer; an `AuthFailure` for a fault.
    public static func token(from text: String) throws -> String {
        if text.contains(":Fault>") || text.contains("<S:Fault") {
            if text.contains("AADSTS50126") || text.contains("0x80048821") {
                throw AuthFailure(.needsInteraction, code: "AADSTS50126", remedy: "the username or password is wrong (SharePoint legacy sign-in)")
            }
            let reason = element("Text", in: text).map { TerminalText.inert(String($0.prefix(160))) } ?? "an unexpected SOAP fault"
            throw AuthFailure(.misconfigured, code: "soap_fault", remedy: "extSTS.srf refused the sign-in: \(reason)")
        }
        guard let token = element("BinarySecurityToken", in: text), !token.isEmpty else {
            if text.contains("0x8004882c") {
                throw AuthFailure(.misconfigured, code: "0x8004882c",
                                  remedy: "legacy authentication is blocked for this tenant; use the modern mode (options.azure_provider)")
            }
            throw AuthFailure(.transient, code: "bad_response", remedy: "extSTS.srf answered without a token; nothing was changed")
        }
        return token
    }

    /// The entity-decoded text of the first element named `name` (any namespace prefix).
    public static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: ":\(name)") ?? xml.range(of: "<\(name)"),
              let close = xml.range(of: ">", range: start.upperBound..<xml.endIndex),
              let end = xml.range(of: "</", range: close.upperBound..<xml.endIndex) else { return nil }
        return String(xml[close.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
