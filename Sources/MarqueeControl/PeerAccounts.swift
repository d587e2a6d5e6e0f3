import Glibc
import MarqueeCore

/// Looks a socket peer up in the accounts database (NSS: /etc/passwd and /etc/group on a device),
/// so `control.roles` can name users and groups. Only asked when roles are configured, once per
/// connection, on the control plane's accept thread.
enum PeerAccounts {
    static func peer(uid: UInt32, gid: UInt32) -> SocketRoles.Peer {
        var peer = SocketRoles.Peer(uid: uid, groupIDs: [gid])
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, let found, let name = found.pointee.pw_name {
            peer.userName = String(cString: name)
            // The user's supplementary groups: SO_PEERCRED names only the primary one.
            var count: Int32 = 64
            var groups = [gid_t](repeating: 0, count: Int(count))
            if getgrouplist(name, gid, &groups, &count) < 0, count > 0 {
                groups = [gid_t](repeating: 0, count: Int(count))
                _ = getgrouplist(name, gid, &groups, &count)
            }
            peer.groupIDs.formUnion(groups.prefix(Int(max(0, count))))
        }
        for id in peer.groupIDs {
            var group = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            if getgrgid_r(id, &group, &buffer, buffer.count, &result) == 0, let result, let name = result.pointee.gr_name {
                peer.groupNames.insert(String(cString: name))
            }
        }
        return peer
    }
}
