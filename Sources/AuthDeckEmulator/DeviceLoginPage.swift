import Foundation

/// `/devicelogin`: where a person (in a real browser) enters a device code and signs in.
struct DeviceLoginPage: Sendable {
    let state: EmulatorState

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        guard r.path == "/devicelogin" else { return nil }
        if r.method == "GET" { return page(message: nil) }
        let f = r.form
        guard let user = await state.directory.user(f["login"] ?? ""), user.password == f["passwd"] else {
            return page(message: "Your account or password is incorrect.")
        }
        let code = (f["otc"] ?? "").trimmingCharacters(in: .whitespaces)
        if f["consent"] == "no" {
            _ = await state.deny(userCode: code)
            return .html(200, "<h1>Cancelled</h1><p>The sign-in was declined.</p>")
        }
        guard await state.approve(userCode: code, user: user.username) else { return page(message: "That code is not valid or has expired.") }
        return .html(200, "<h1>You have signed in</h1><p>You can close this window and return to the application.</p>")
    }

    func page(message: String?) -> EmulatorResponse {
        .html(200, """
            <h1>Enter code</h1>\(message.map { "<p style=color:red>\(htmlEscape($0))</p>" } ?? "")
            <form method=post action=/devicelogin>
            <p><label>Code <input name=otc autofocus></label></p>
            <p><label>Email <input name=login></label></p>
            <p><label>Password <input name=passwd type=password></label></p>
            <p><button name=consent value=yes>Sign in</button> <button name=consent value=no>Cancel</button></p></form>
            """)
    }
}
