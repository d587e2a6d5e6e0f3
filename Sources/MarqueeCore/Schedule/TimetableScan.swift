import Foundation

/// Walks a timetable forward edge by edge, remembering for each schedule whether it holds the
/// cursor and where its next edge is, so a step re-reads only the schedules that have an edge
/// there. Asking every schedule at every step made `marquee schedule` take 149 s to print one day
/// of 10,000 items each with a window; a schedule's answer can change only at its own edges.
struct TimetableScan {
    private enum Role {
        case daypart(Int)
        case item(daypart: Int, item: Int)
        case displayOff
    }

    private let timetable: Timetable
    private let schedules: [(role: Role, schedule: Schedule)]
    /// Per schedule: whether it holds the cursor, and its first edge after the cursor.
    private var holds: [Bool]
    private var nextEdges: [Date?]
    private(set) var cursor: Date

    init(_ timetable: Timetable, at instant: Date) {
        self.timetable = timetable
        var schedules: [(Role, Schedule)] = []
        for (index, daypart) in timetable.dayparts.enumerated() {
            if let schedule = daypart.schedule { schedules.append((.daypart(index), schedule)) }
            for (item, schedule) in daypart.itemSchedules.enumerated() {
                if let schedule { schedules.append((.item(daypart: index, item: item), schedule)) }
            }
        }
        if let off = timetable.displayPower.offWindows { schedules.append((.displayOff, off)) }
        self.schedules = schedules.map { (role: $0.0, schedule: $0.1) }
        holds = schedules.map { $0.1.contains(instant, on: timetable.clock) }
        nextEdges = schedules.map { $0.1.nextEdge(after: instant, on: timetable.clock) }
        cursor = instant
    }

    /// Moves to the next edge of any schedule before `horizon`; nil when there is none.
    mutating func advance(before horizon: Date) -> Date? {
        var earliest: Date?
        for edge in nextEdges { if let edge, earliest.map({ edge < $0 }) ?? true { earliest = edge } }
        guard let edge = earliest, edge < horizon else { return nil }
        for index in nextEdges.indices where nextEdges[index] == edge {
            let schedule = schedules[index].schedule
            holds[index] = schedule.contains(edge, on: timetable.clock)
            nextEdges[index] = schedule.nextEdge(after: edge, on: timetable.clock)
        }
        cursor = edge
        return edge
    }

    /// `Timetable.state(at: cursor)`, from what each schedule holds.
    var state: ScheduleState {
        var daypartHolds = [Bool](repeating: true, count: timetable.dayparts.count)
        var itemHolds = timetable.dayparts.map { [Bool](repeating: true, count: $0.itemSchedules.count) }
        var offByClock = false
        for (index, entry) in schedules.enumerated() {
            switch entry.role {
            case .daypart(let daypart): daypartHolds[daypart] = holds[index]
            case .item(let daypart, let item): itemHolds[daypart][item] = holds[index]
            case .displayOff: offByClock = holds[index]
            }
        }
        var active: Int?
        for (index, daypart) in timetable.dayparts.enumerated() where !daypart.isDefault && daypartHolds[index] {
            // Strictly greater: on equal priority the one listed first keeps its place.
            if active == nil || daypart.priority > timetable.dayparts[active!].priority { active = index }
        }
        if active == nil { active = timetable.dayparts.indices.first { timetable.dayparts[$0].isDefault && daypartHolds[$0] } }
        let items = active.map { daypart in itemHolds[daypart].indices.filter { itemHolds[daypart][$0] } } ?? []
        let idle = active == nil || items.isEmpty
        let displayOn = !offByClock && !(timetable.displayPower.offWhenIdle && idle)
        return ScheduleState(daypart: active, items: items, displayOn: displayOn)
    }
}
