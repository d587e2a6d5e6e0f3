import Foundation

/// Where the control socket goes when neither `--control` nor `control.socket` says: systemd's
/// `$RUNTIME_DIRECTORY/control.sock` (the unit's `RuntimeDirectory=marquee`), else
/// `/run/marquee/control.sock` when that folder is writable, else `$XDG_RUNTIME_DIR/marquee.sock`.
public enum ControlSocketLocation {
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   isWritableFolder: (String) -> Bool = ControlSocketLocation.isWritableFolder) -> String? {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            return "\(runtime)/control.sock"
        }
        if isWritableFolder("/run/marquee") { return "/run/marquee/control.sock" }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty { return "\(xdg)/marquee.sock" }
        return nil
    }

    /// Where `marquee ctl` looks: the same places, except that /run/marquee counts when the socket
    /// is there (an operator in the marquee group can reach it but not write the folder); with
    /// nothing found it names /run/marquee/control.sock, so its error says where it looked.
    public static func clientPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            return "\(runtime)/control.sock"
        }
        let system = "/run/marquee/control.sock"
        if exists(system) { return system }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty { return "\(xdg)/marquee.sock" }
        return system
    }

    public static func isWritableFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            && access(path, W_OK | X_OK) == 0
    }
}
