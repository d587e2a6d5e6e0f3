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
    /// Per schedule, its first edge after the cursor.
    private var nextEdges: [Date?]
    /// What holds at the cursor, as `Timetable.state(daypartHolds:itemHolds:offByClock:)` asks it.
    private var daypartHolds: [Bool]
    private var itemHolds: [[Bool]]
    private var offByClock = false
    private(set) var cursor: Date

    init(_ timetable: Timetable, at instant: Date) {
        self.timetable = timetable
        var schedules: [(role: Role, schedule: Schedule)] = []
        for (index, daypart) in timetable.dayparts.enumerated() {
            if let schedule = daypart.schedule { schedules.append((.daypart(index), schedule)) }
            for (item, schedule) in daypart.itemSchedules.enumerated() {
                if let schedule { schedules.append((.item(daypart: index, item: item), schedule)) }
            }
        }
        if let off = timetable.displayPower.offWindows { schedules.append((.displayOff, off)) }
        self.schedules = schedules
        // A missing schedule holds; the others are asked below.
        daypartHolds = [Bool](repeating: true, count: timetable.dayparts.count)
        itemHolds = timetable.dayparts.map { [Bool](repeating: true, count: $0.itemSchedules.count) }
        nextEdges = schedules.map { $0.schedule.nextEdge(after: instant, on: timetable.clock) }
        cursor = instant
        for index in schedules.indices { record(index, holds: schedules[index].schedule.contains(instant, on: timetable.clock)) }
    }

    private mutating func record(_ index: Int, holds: Bool) {
        switch schedules[index].role {
        case .daypart(let daypart): daypartHolds[daypart] = holds
        case .item(let daypart, let item): itemHolds[daypart][item] = holds
        case .displayOff: offByClock = holds
        }
    }

    /// Moves to the next edge of any schedule before `horizon`; nil when there is none.
    mutating func advance(before horizon: Date) -> Date? {
        var earliest: Date?
        for edge in nextEdges { if let edge, earliest.map({ edge < $0 }) ?? true { earliest = edge } }
        guard let edge = earliest, edge < horizon else { return nil }
        for index in nextEdges.indices where nextEdges[index] == edge {
            let schedule = schedules[index].schedule
            record(index, holds: schedule.contains(edge, on: timetable.clock))
            nextEdges[index] = schedule.nextEdge(after: edge, on: timetable.clock)
        }
        cursor = edge
        return edge
    }

    /// `Timetable.state(at: cursor)`, from what each schedule holds.
    var state: ScheduleState {
        timetable.state(daypartHolds: { daypartHolds[$0] }, itemHolds: { itemHolds[$0][$1] }, offByClock: offByClock)
    }
}
