"""planner_seed.py: what the task API v2 benchmarks give an account: `lists` lists (the default one first) holding
`tasks` tasks in turn, a third with notes, half with a due date (a quarter with a time), a tenth repeating weekly."""
import json
import uuid


def seed(call, tasks, lists):
    """Seeds through `call(method, path, body, headers)` (a path under /api/v2); answers the list ids and
    (list id, task id) of every task."""
    list_ids = [json.loads(call("GET", "/lists"))[0]["id"]]
    for index in range(lists - 1):
        list_id = str(uuid.uuid4())
        call("PUT", f"/lists/{list_id}", {"name": f"List {index + 1}"}, {"If-None-Match": "*"})
        list_ids.append(list_id)
    task_ids = []
    for index in range(tasks):
        task_id = str(uuid.uuid4())
        body = {"title": f"Task number {index}", "notes": "a note" if index % 3 == 0 else "", "priority": index % 10}
        if index % 2 == 0:
            body["due"] = {"date": f"2026-12-{index % 28 + 1:02d}", "time": "09:00" if index % 4 == 0 else None}
        if index % 10 == 0:
            body["recurrence"] = {"rrule": "FREQ=WEEKLY", "from": "due"}
        call("PUT", f"/lists/{list_ids[index % lists]}/tasks/{task_id}", body, {"If-None-Match": "*"})
        task_ids.append((list_ids[index % lists], task_id))
    return list_ids, task_ids
