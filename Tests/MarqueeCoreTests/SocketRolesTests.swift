import MarqueeCore
import Testing

/// `control.roles`: a user's own grant wins, else the highest of its groups', else `others`, else
/// `admin`; root and the player's own user are always `admin`.
@Suite struct SocketRolesTests {
    static let roles = SocketRoles([
        .init(.user("alice"), .admin),
        .init(.user("1002"), .observe),
        .init(.group("staff"), .control),
        .init(.group("visitors"), .observe),
        .init(.group("1005"), .admin),
        .init(.others, .observe),
    ])
    static let ownUID: UInt32 = 999

    static func role(uid: UInt32, user: String? = nil, groups: [String] = [], gids: [UInt32] = []) -> ControlRole {
        roles.role(of: .init(uid: uid, userName: user, groupIDs: Set(gids), groupNames: Set(groups)), ownUID: ownUID)
    }

    @Test func aUsersOwnGrantWinsOverItsGroups() {
        #expect(Self.role(uid: 1001, user: "alice", groups: ["visitors"]) == .admin)
        // By uid in digits, over a group that grants more.
        #expect(Self.role(uid: 1002, user: "bob", groups: ["staff"]) == .observe)
    }

    @Test func theHighestGroupGrantWins() {
        #expect(Self.role(uid: 1003, user: "carol", groups: ["visitors", "staff"]) == .control)
        #expect(Self.role(uid: 1003, user: "carol", groups: ["visitors"], gids: [1005]) == .admin)
    }

    @Test func othersAreWhoIsNamedNowhere() {
        #expect(Self.role(uid: 1004, user: "dave", groups: ["users"], gids: [100]) == .observe)
        #expect(Self.role(uid: 1004) == .observe)
    }

    @Test func withoutOthersTheUnnamedAreAdminAndNoGrantsMeansAdminForAll() {
        let narrow = SocketRoles([.init(.group("visitors"), .observe)])
        #expect(narrow.role(of: .init(uid: 1004, userName: "dave"), ownUID: Self.ownUID) == .admin)
        #expect(narrow.role(of: .init(uid: 1004, userName: "dave", groupNames: ["visitors"]), ownUID: Self.ownUID) == .observe)
        #expect(SocketRoles().isEmpty)
        #expect(SocketRoles().role(of: .init(uid: 1004), ownUID: Self.ownUID) == .admin)
    }

    @Test func rootAndThePlayersOwnUserAreAlwaysAdmin() {
        let locked = SocketRoles([.init(.user("root"), .observe), .init(.user("999"), .observe), .init(.others, .observe)])
        #expect(locked.role(of: .init(uid: 0, userName: "root"), ownUID: Self.ownUID) == .admin)
        #expect(locked.role(of: .init(uid: Self.ownUID), ownUID: Self.ownUID) == .admin)
    }

    @Test func principalsAreReadFromTheirNames() {
        #expect(SocketRoles.Principal("alice") == .user("alice"))
        #expect(SocketRoles.Principal("@staff") == .group("staff"))
        #expect(SocketRoles.Principal("others") == .others)
        #expect(SocketRoles.Principal("@") == nil)
        #expect(SocketRoles.Principal("") == nil)
    }
}
