import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `control.roles`: users, @groups and others mapped to roles; mistakes carry their position.
@Suite struct ControlRolesConfigTests {
    static func load(_ yaml: String) throws -> (ControlConfiguration?, [String]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", "playlist:\n  items: [a.mp4]\ncontrol:\n" + yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        return (result.configuration?.control, result.diagnostics.map(\.description))
    }

    @Test func grantsAreReadInOrder() throws {
        let (control, diagnostics) = try Self.load("  roles:\n    alice: admin\n    \"@staff\": control\n    others: observe\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(control?.roles == SocketRoles([.init(.user("alice"), .admin), .init(.group("staff"), .control), .init(.others, .observe)]))
    }

    @Test func noRolesMeansEveryoneWhoMayConnectIsAdmin() throws {
        let (control, diagnostics) = try Self.load("  socket: none\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(control?.roles.isEmpty == true)
    }

    @Test func mistakesAreErrorsAtTheirPlace() throws {
        let (_, diagnostics) = try Self.load("  roles:\n    alice: root\n    \"@\": observe\n")
        #expect(diagnostics.contains { $0.contains("5:12: error: unknown control role 'root'") }, "\(diagnostics)")
        #expect(diagnostics.contains { $0.contains("6:5: error: expected a user name, a uid, @group, @gid or others, found '@'") }, "\(diagnostics)")
        let (_, notAMapping) = try Self.load("  roles: [admin]\n")
        #expect(notAMapping.contains { $0.contains("4:10: error: expected a mapping of users, @groups or others to control roles") }, "\(notAMapping)")
    }
}
