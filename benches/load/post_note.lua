-- POST /api/notes with a form body (the key comes from CRM_KEY).
wrk.method = "POST"
wrk.path = "/api/notes"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("CRM_KEY")
wrk.body = "note_title=Load+test+note&note_description=Posted+by+wrk&tags%5B%5D=load&noteresource_type=client&noteresource_id=1"
