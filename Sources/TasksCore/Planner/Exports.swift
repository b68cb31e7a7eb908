// The planner's calendar values are the core's too: whoever imports TasksCore has CalendarDate, TimeOfDay, Weekday
// and RecurrenceRule.

@_exported import TasksCalendar
